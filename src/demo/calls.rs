//! What a co-operative society calls its software vendor's support desk about, as the desk
//! logs it: the recurring kinds of call with their subjects and fixes, a lead's questions, the
//! notes written on the way and the branches named in subjects. The demo's tickets draw on it.

/// A recurring kind of call: its kind as the desk writes it, its type (from the default
/// `ticket.types`), how often it comes, the subjects it is logged under with a line of
/// description, and the note of the one who fixed it.
pub struct Call {
    pub kind: &'static str,
    pub ticket_type: &'static str,
    pub weight: u64,
    pub subjects: &'static [(&'static str, &'static str)],
    pub fix: &'static str,
}

pub const CALLS: &[Call] = &[
    Call {
        kind: "Day-end",
        ticket_type: "service",
        weight: 14,
        subjects: &[
            (
                "Day-end not closing at the {branch} branch",
                "Day-end stops at 'posting interest' with a lock message. The cashier cannot open tomorrow's day.",
            ),
            (
                "Month-end closing shows a difference in the cash book",
                "Cash book and day book differ after month-end closing. The accountant wants it fixed before the board meeting.",
            ),
            (
                "Day-end taking over an hour",
                "Since the last update the day-end runs for more than an hour at the head office.",
            ),
        ],
        fix: "Remote session via AnyDesk, fixed the day-end lock",
    },
    Call {
        kind: "Passbook printing",
        ticket_type: "service",
        weight: 10,
        subjects: &[
            (
                "Printer not printing passbook",
                "The passbook printer at the counter prints blank lines. Other printing works.",
            ),
            (
                "Passbook lines overlapping after printer change",
                "The new Olivetti printer prints two entries on one line; the old settings were for the Epson.",
            ),
        ],
        fix: "Reset the passbook page settings for the new printer; test print fine",
    },
    Call {
        kind: "Interest calculation",
        ticket_type: "bug",
        weight: 8,
        subjects: &[
            (
                "Loan interest mismatch after slab change",
                "Interest on gold loans differs from the manual calculation since the new slab from the 1st.",
            ),
            (
                "FD interest calculated on the wrong number of days",
                "Fixed deposit interest for February maturities is short by a day or two.",
            ),
            (
                "RD penal interest not applied",
                "Penal interest is not charged on overdue recurring deposit instalments.",
            ),
        ],
        fix: "Slab effective date corrected; interest recalculated and verified with the accountant",
    },
    Call {
        kind: "Password reset",
        ticket_type: "service",
        weight: 9,
        subjects: &[
            (
                "Password reset for cashier",
                "The cashier forgot the password after leave.",
            ),
            (
                "Manager locked out after wrong password attempts",
                "The branch manager's login is locked. Transactions are waiting.",
            ),
            (
                "New login for the {branch} branch clerk",
                "A new clerk joined the {branch} branch and needs a login with counter rights.",
            ),
        ],
        fix: "Password reset and shared with the secretary over the phone",
    },
    Call {
        kind: "Backup",
        ticket_type: "service",
        weight: 6,
        subjects: &[
            (
                "Daily backup failing on the server",
                "The backup reminder shows 'failed' for the last three days.",
            ),
            (
                "Backup pen drive full, need cloud backup",
                "The society wants the backup copied to the cloud as the auditor suggested.",
            ),
        ],
        fix: "Cleared old backups and checked tonight's backup completed",
    },
    Call {
        kind: "GST return",
        ticket_type: "service",
        weight: 6,
        subjects: &[
            (
                "GST report totals differ",
                "GSTR-1 totals do not match the sales register for last month.",
            ),
            (
                "GSTR-1 export missing B2B invoices",
                "Invoices to registered members are missing in the export file.",
            ),
        ],
        fix: "Two invoices had the wrong place of supply; corrected and the report tallies",
    },
    Call {
        kind: "SMS",
        ticket_type: "service",
        weight: 7,
        subjects: &[
            (
                "SMS not going to members after deposit",
                "Members say they get no SMS for deposits since Monday.",
            ),
            (
                "DLT template rejected for loan reminder SMS",
                "The loan due reminder template was rejected by the operator.",
            ),
        ],
        fix: "Gateway login renewed and the template registered again; test SMS received",
    },
    Call {
        kind: "Mobile app",
        ticket_type: "bug",
        weight: 6,
        subjects: &[
            (
                "Mobile app OTP not arriving",
                "Members do not get the OTP when they sign in to the mobile app.",
            ),
            (
                "Mobile app shows old balance",
                "The app shows yesterday's balance until the member signs in again.",
            ),
            (
                "Member cannot register in the mobile app",
                "Registration fails with 'account not found' for a few members.",
            ),
        ],
        fix: "Sync service restarted on the society's server; members can sign in",
    },
    Call {
        kind: "Data correction",
        ticket_type: "data correction",
        weight: 6,
        subjects: &[
            (
                "Data correction: member share capital",
                "Share capital of a member was posted twice during the share drive.",
            ),
            (
                "Wrong date entered on loan disbursement",
                "A loan was disbursed with last year's date; the society has the board's letter.",
            ),
            (
                "Duplicate member number to be merged",
                "The same member has two numbers after the branch merger.",
            ),
        ],
        fix: "Correction made with the secretary's written request on file",
    },
    Call {
        kind: "Training",
        ticket_type: "training",
        weight: 5,
        subjects: &[
            (
                "Training for new secretary",
                "The new secretary takes charge next month and needs a full day of training.",
            ),
            (
                "Training on the loan module for new staff",
                "Two new clerks need training on loan disbursement and recovery.",
            ),
        ],
        fix: "Training given at the society; attendance sheet signed",
    },
    Call {
        kind: "Installation",
        ticket_type: "installation",
        weight: 3,
        subjects: &[
            (
                "Installation at the new {branch} branch",
                "The {branch} branch opens on the 1st; two counters and the manager's system.",
            ),
            (
                "Move the software to the new server",
                "The society bought a new server; move the database and the licences.",
            ),
        ],
        fix: "Installed and tested with a live transaction at each counter",
    },
    Call {
        kind: "Reports",
        ticket_type: "service",
        weight: 6,
        subjects: &[
            (
                "Trial balance not matching the balance sheet",
                "The auditor found a difference between the trial balance and the balance sheet.",
            ),
            (
                "NPA report shows the wrong overdue",
                "Loans repaid last week still show as NPA in the report.",
            ),
        ],
        fix: "Report re-run after re-indexing; totals tally",
    },
    Call {
        kind: "Renewal",
        ticket_type: "renewal",
        weight: 3,
        subjects: &[
            (
                "Licence expiry warning on the login screen",
                "The login screen warns that the licence expires in 10 days.",
            ),
            (
                "AMC renewal query",
                "The president asks what the AMC renewal covers this year.",
            ),
        ],
        fix: "Renewal explained; licence key extended after payment",
    },
    Call {
        kind: "Gold loan",
        ticket_type: "service",
        weight: 4,
        subjects: &[
            (
                "Gold rate not updated in gold loan",
                "The day's gold rate cannot be saved; the old rate is used for new loans.",
            ),
            (
                "Gold loan auction list incorrect",
                "The auction list includes loans that were renewed.",
            ),
        ],
        fix: "Rate master corrected; new loans take today's rate",
    },
    Call {
        kind: "Dividend",
        ticket_type: "service",
        weight: 3,
        subjects: &[(
            "Dividend posting to SB accounts failed",
            "Dividend posting stopped halfway; some members got it, some did not.",
        )],
        fix: "Posting completed for the remaining members; list sent to the secretary",
    },
    Call {
        kind: "Connectivity",
        ticket_type: "service",
        weight: 4,
        subjects: &[
            (
                "Software very slow at the {branch} branch",
                "Every screen takes a minute to open at the {branch} branch.",
            ),
            (
                "Branch cannot connect to the head office server",
                "The branch shows 'server not reachable' since the morning.",
            ),
        ],
        fix: "The branch router had a new IP; VPN settings updated",
    },
];

/// What a lead calls about, before it has bought anything.
pub const LEAD_CALLS: &[(&str, &str)] = &[
    (
        "Demo of the core banking software for the board",
        "The board wants a demo at the society before the next meeting.",
    ),
    (
        "Data migration from the old system: feasibility",
        "The society runs an old FoxPro package and asks whether ten years of data can be moved.",
    ),
    (
        "Quotation query: licences for three branches",
        "The secretary asks for the price with three branches and the mobile app.",
    ),
];

/// Notes the desk writes on the way.
pub const NOTES: &[&str] = &[
    "Called the secretary; will check after the AGM",
    "Asked the society to send a screenshot on WhatsApp",
    "Escalated to the development team with the log file",
    "Visited the branch: the cashier's system had the wrong date",
    "Waiting for the society's internet connection to be restored",
    "Explained the steps to the accountant over the phone",
    "Engineer to visit on Saturday",
    "The president wants this done before the audit",
];

/// Places a society has branches in, as the desk writes them.
pub const BRANCHES: &[&str] = &[
    "Kallai",
    "Mavoor",
    "Nallalam",
    "Chevayur",
    "Meenchanda",
    "Kunnamangalam",
    "Thondayad",
    "Pantheerankavu",
    "Kakkodi",
    "Town",
];
