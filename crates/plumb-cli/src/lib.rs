//! plumb's command line as a library: the argument definitions (clap; each producer's
//! own options are its library's, composed here), so that tests parse command lines as
//! `plumb` does. The binary (`main.rs`) adapts the parsed arguments into the libraries'
//! requests, prints, and maps outcomes to exit codes.

pub mod args;
