//! Without perf_event_open (plumb-counters without its `perf` feature): counter groups
//! that never open and child counters that count nothing, with the same interface as
//! `group.rs` and `child.rs`, so the harness's probe and the command runner compile
//! unchanged and simply find no event open (availability says "not built").
use crate::{CounterEvent, Reading};
use std::convert::Infallible;
use std::io;
use std::os::fd::RawFd;

/// Never made: `open_self` refuses.
pub struct CounterGroups {
    never: Infallible,
}

impl CounterGroups {
    pub fn open_self(_: &[CounterEvent]) -> io::Result<CounterGroups> {
        Err(io::Error::new(
            io::ErrorKind::Unsupported,
            crate::availability::NOT_BUILT,
        ))
    }

    pub fn events(&self) -> Vec<CounterEvent> {
        match self.never {}
    }

    pub(crate) fn layout(&self) -> Vec<(RawFd, Vec<CounterEvent>)> {
        match self.never {}
    }

    pub fn enable(&mut self) -> io::Result<()> {
        match self.never {}
    }

    pub fn disable(&mut self) -> io::Result<()> {
        match self.never {}
    }

    pub fn reset(&mut self) -> io::Result<()> {
        match self.never {}
    }

    pub fn read(&mut self) -> io::Result<Reading> {
        match self.never {}
    }
}

/// Counts nothing: no event opens.
pub struct ChildCounters;

impl ChildCounters {
    pub fn open(_: &[CounterEvent]) -> ChildCounters {
        ChildCounters
    }

    pub fn events(&self) -> Vec<CounterEvent> {
        Vec::new()
    }

    pub fn read(&mut self) -> io::Result<Reading> {
        Ok(Reading {
            counted: Vec::new(),
        })
    }
}
