//! Undo of the last wholesale replacement of the draft ([`Undo`]): the draft before it, kept
//! by the draft, offered by the message that reports the change and taken by the
//! application actions.

use crate::codec::Draft;
use std::rc::Rc;

/// The draft before a change, to go back to.
#[derive(Clone, Debug, PartialEq)]
pub struct Undo {
    /// The saved form of the draft before the change (what was typed included).
    pub before: Rc<Draft>,
    /// The change, in words (`loading workload-1`).
    pub what: String,
    /// Which change this is: the message reporting it offers this Undo, no other message.
    pub id: u64,
    /// What the jobs were loaded from before the change ([`TraceForm::loaded`](super::TraceForm::loaded)).
    pub loaded: Option<String>,
}

impl Undo {
    /// Going back to `before` over `what`.
    pub fn of((before, loaded): (Draft, Option<String>), what: impl Into<String>) -> Undo {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        Undo {
            before: Rc::new(before),
            what: what.into(),
            id: NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            loaded,
        }
    }
}
