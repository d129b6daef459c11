//! What to generate and what was written: the options every pass reads and the counts each
//! adds to.

/// What to generate.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    pub clients: usize,
    pub years: u32,
    pub seed: u64,
}

/// What was written.
#[derive(Debug, Default)]
pub struct Summary {
    pub staff: usize,
    pub clients: usize,
    pub subscriptions: usize,
    pub milestones: usize,
    pub documents: usize,
    pub lines: usize,
    pub payments: usize,
    pub allocations: usize,
    /// Payments cancelled with a reason, and refunds of advances.
    pub cancelled_payments: usize,
    pub refunds: usize,
    pub audit: usize,
    /// The follow-up work: service contracts, recurring plans, interactions, reminders.
    pub contracts: usize,
    pub plans: usize,
    pub interactions: usize,
    pub reminders: usize,
    /// DB and portal passwords the old system left encrypted.
    pub legacy_credentials: usize,
    /// Clients still in the pipeline: no subscription, no document.
    pub leads: usize,
    /// Support tickets, those still open (open, in progress or waiting on the client), and the
    /// lines of their timelines.
    pub tickets: usize,
    pub tickets_open: usize,
    pub ticket_events: usize,
    /// Active SMS subscriptions (counted in `subscriptions` too), those below the default
    /// low-balance threshold and those flagged by their last check; the balance checks of the
    /// last month and the changes of a read balance among them (each audited).
    pub sms_subscriptions: usize,
    pub sms_low: usize,
    pub sms_flagged: usize,
    pub sms_checks: usize,
    pub sms_balance_changes: usize,
    /// Societies on the cloud and their monthly cost rows (the last 24 months).
    pub cloud_clients: usize,
    pub cloud_costs: usize,
    /// Societies that deducted TDS, those with their TAN on record, and the Form 16A
    /// certificates recorded for past quarters.
    pub tds_clients: usize,
    pub tds_tans: usize,
    pub tds_certificates: usize,
    /// Entries of the Form 26AS uploaded (last year's and this year's), and the societies'
    /// quarters it shows short or not filed.
    pub tds_26as_entries: usize,
    pub tds_26as_short: usize,
}
