//! What a producer that measures in rounds until a verdict settles (`plumb revs`, history
//! confirmation) asks of that verdict. plumb-analysis' `Settling` answers it; the trait is
//! here, in the model both share, so that the producer needs no analysis.
use crate::{Look, SequentialDesignRecord};

/// A sequential verdict's state between rounds.
pub trait Settle {
    /// After more runs of both sides (`base`, `new`: every measured value so far, in run
    /// order): looks when the whole rounds complete a look point; true once settled.
    fn after(&mut self, base: &[f64], new: &[f64]) -> bool;
    /// Whether the last look settled the verdict.
    fn settled(&self) -> bool;
    /// The cap in rounds.
    fn max_rounds(&self) -> usize;
    /// Every look taken, in order.
    fn looks(&self) -> &[Look];
    /// The design as the result records it.
    fn record(&self) -> SequentialDesignRecord;
}

/// Makes the verdict a comparison settles by, once the producer knows its terms: the
/// significance `alpha` it is judged at and the runs of each side a round holds.
pub type SettleWith<'a> = &'a dyn Fn(f64, usize) -> Box<dyn Settle>;
