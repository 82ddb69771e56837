//! plumb's command line as a library: the argument definitions (clap) and the parsers of
//! their values, so that tests parse command lines as `plumb` does. The binary
//! (`main.rs`) adapts the parsed arguments into the libraries' requests, prints, and maps
//! outcomes to exit codes.

pub mod args;
pub mod values;
