//! The `backoffice` command: parse the command line, start logging, dispatch.

use backoffice::auth::{rules as auth_rules, store as auth_store};
use backoffice::demo;
use backoffice::plumbing::config::Config;
use backoffice::plumbing::db;
use backoffice::plumbing::db::audit::{Audit, audit};
use backoffice::plumbing::db::backup;
use backoffice::setup::first_start::bootstrap;
use backoffice::state::AppState;
use backoffice::{app, staff};
use clap::{Parser, Subcommand};
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::process::ExitCode;

#[cfg(windows)]
#[path = "plumbing/winservice.rs"]
mod winservice;

/// The back office for a software vendor serving co-operative societies.
///
/// Everything lives in one SQLite data file. Start the server with `backoffice serve`, then
/// open the console in a browser (http://127.0.0.1:8080 by default).
#[derive(Parser)]
#[command(name = "backoffice", version, about, long_about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the server: the JSON API under /api, the console at /, background jobs.
    Serve(ServeArgs),
    /// Write a consistent copy of the data file (safe while the server runs).
    Backup {
        /// The data file to copy.
        #[arg(long, env = "BACKOFFICE_DATA", default_value = "backoffice.db")]
        data: PathBuf,
        /// Where to write the copy; must not exist yet.
        #[arg(long)]
        out: PathBuf,
    },
    /// Replace the data file with a backup (the server must be stopped; the replaced file is kept).
    Restore {
        #[arg(long, env = "BACKOFFICE_DATA", default_value = "backoffice.db")]
        data: PathBuf,
        /// The backup to restore.
        #[arg(long)]
        from: PathBuf,
    },
    /// Run SQLite's integrity check on the data file and print its schema version.
    Check {
        #[arg(long, env = "BACKOFFICE_DATA", default_value = "backoffice.db")]
        data: PathBuf,
    },
    /// Run as a Windows service: install, uninstall, run.
    #[cfg(windows)]
    #[command(subcommand)]
    Service(ServiceCommand),
    /// Give an account a new initial password (for an owner locked out; run on the server itself).
    ResetPassword {
        #[arg(long, env = "BACKOFFICE_DATA", default_value = "backoffice.db")]
        data: PathBuf,
        /// The username or email of the account.
        username: String,
    },
    /// Fill a new data file with a realistic office (deterministic for a seed), to try the
    /// console or to benchmark: `--clients 100` to look around, `--clients 5000 --years 10` for a large office.
    DemoData {
        #[arg(long, env = "BACKOFFICE_DATA", default_value = "backoffice.db")]
        data: PathBuf,
        /// Societies to create.
        #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=100_000))]
        clients: u32,
        /// Years of history up to today.
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=30))]
        years: u32,
        /// The same seed gives the same office.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The owner's password on a new file (else one is generated and printed).
        #[arg(long, env = "BACKOFFICE_OWNER_PASSWORD", hide_env_values = true)]
        owner_password: Option<String>,
    },
}

#[cfg(windows)]
#[derive(Subcommand)]
enum ServiceCommand {
    /// Register the Windows service "backoffice" (automatic start).
    Install,
    /// Remove the Windows service (the data stays).
    Uninstall,
    /// What Windows runs: serve until the service is stopped.
    Run,
}

#[derive(clap::Args)]
struct ServeArgs {
    /// The data file; created with its owner account on first start.
    #[arg(long, env = "BACKOFFICE_DATA", default_value = "backoffice.db")]
    data: PathBuf,
    /// Address and port to listen on.
    #[arg(long, env = "BACKOFFICE_LISTEN", default_value = "127.0.0.1:8080")]
    listen: SocketAddr,
    /// Public base URL for links (e.g. https://office.example.in); default: the request's own origin.
    #[arg(long, env = "BACKOFFICE_BASE_URL")]
    base_url: Option<String>,
    /// The reverse proxy whose X-Forwarded-For is trusted (one hop).
    #[arg(long, env = "BACKOFFICE_TRUSTED_PROXY")]
    trusted_proxy: Option<IpAddr>,
    /// Email (and username) of the owner created on first start.
    #[arg(long, env = "BACKOFFICE_OWNER_EMAIL", default_value = "owner@localhost")]
    owner_email: String,
    /// Password of the owner created on first start; when unset, one is generated and printed once.
    #[arg(long, env = "BACKOFFICE_OWNER_PASSWORD", hide_env_values = true)]
    owner_password: Option<String>,
    /// Hours between the consistent snapshots written to backups/ beside the data file (0: none).
    #[arg(long, env = "BACKOFFICE_BACKUP_EVERY_HOURS", default_value_t = 24)]
    backup_every_hours: u64,
    /// How many snapshots to keep.
    #[arg(long, env = "BACKOFFICE_BACKUP_KEEP", default_value_t = 7)]
    backup_keep: usize,
    /// Lift the address check on outbound calls (tests and labs only).
    #[arg(long, env = "BACKOFFICE_ALLOW_PRIVATE_TARGETS", value_parser = parse_flag, default_value = "0")]
    allow_private_targets: bool,
    /// The certificate authority (PEM) of the office's own mail server, when it is not signed by
    /// a public one: SMTP's TLS trusts it beside the public roots.
    #[arg(long, env = "BACKOFFICE_SMTP_CA_FILE")]
    smtp_ca_file: Option<PathBuf>,
    /// The data file is replicated by Litestream (packaging/litestream/): checkpoints are left to
    /// it, and a clean stop leaves the WAL for it to ship.
    #[arg(long, env = "BACKOFFICE_REPLICATED", value_parser = parse_flag, default_value = "0",
          num_args = 0..=1, default_missing_value = "1")]
    replicated: bool,
    /// On a data file without clients: fill it first with a demo office of 100 societies
    /// (the same as `demo-data --clients 100`), to look around a living console.
    #[arg(long)]
    demo: bool,
}

fn parse_flag(value: &str) -> Result<bool, String> {
    match value.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Ok(true),
        "0" | "false" | "no" | "off" | "" => Ok(false),
        other => Err(format!("expected 1 or 0, got {other}")),
    }
}

/// Logs go to standard error (the journal under systemd), one line per event.
fn init_logging() {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()),
        )
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
}

fn main() -> ExitCode {
    let command = Cli::parse().command;
    #[cfg(windows)]
    if let Command::Service(ServiceCommand::Run) = command {
        // A service has no console: it sets up its own log file.
        return exit_with(winservice::run(serve_as_service));
    }
    init_logging();
    let result = match command {
        Command::Serve(args) => serve(args, shutdown_signal(), &mut std::io::stderr()),
        Command::Backup { data, out } => {
            backup::backup_file(&data, &out).map(|()| println!("Backup written to {}", out.display()))
        }
        Command::Restore { data, from } => restore(&data, &from),
        Command::Check { data } => check(&data),
        Command::ResetPassword { data, username } => reset_password(&data, &username),
        Command::DemoData {
            data,
            clients,
            years,
            seed,
            owner_password,
        } => demo_data(
            data,
            demo::Options {
                clients: clients as usize,
                years,
                seed,
            },
            owner_password,
        ),
        #[cfg(windows)]
        Command::Service(ServiceCommand::Install) => winservice::install().map(|warnings| {
            for warning in warnings {
                eprintln!("warning: {warning}");
            }
            println!("Service \"backoffice\" installed; start it with: net start backoffice");
        }),
        #[cfg(windows)]
        Command::Service(ServiceCommand::Uninstall) => winservice::uninstall()
            .map(|()| println!("Service removed; the data in C:\\ProgramData\\Backoffice stays")),
        #[cfg(windows)]
        Command::Service(ServiceCommand::Run) => unreachable!("handled above"),
    };
    exit_with(result)
}

fn exit_with(result: Result<(), String>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Serves until `shutdown` completes. The first-start owner password is written to `notice`
/// (standard error, or the service's log file).
fn serve(
    args: ServeArgs,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    notice: &mut dyn std::io::Write,
) -> Result<(), String> {
    let demo = args.demo;
    let config = Config {
        data: args.data,
        listen: args.listen,
        base_url: args.base_url,
        trusted_proxy: args.trusted_proxy,
        owner_email: args.owner_email,
        owner_password: args.owner_password.filter(|p| !p.is_empty()),
        allow_private_targets: args.allow_private_targets,
        backup_every_hours: args.backup_every_hours,
        backup_keep: args.backup_keep,
        smtp_ca: args
            .smtp_ca_file
            .as_deref()
            .map(backoffice::plumbing::config::read_smtp_ca)
            .transpose()?,
        checkpoints: if args.replicated {
            db::Checkpoints::Litestream
        } else {
            db::Checkpoints::Server
        },
        ..Config::default()
    };
    if let Some(folder) = config.data.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(folder).map_err(|e| format!("cannot create {}: {e}", folder.display()))?;
    }
    // One server per data file; a restore waits for it to stop.
    let _lock = backup::lock_data_file(&config.data)?;
    if config.allow_private_targets {
        tracing::warn!("BACKOFFICE_ALLOW_PRIVATE_TARGETS is set: outbound calls may reach private addresses");
    }
    let checkpoints = config.checkpoints;
    let litestream = backup::litestream_state(&config.data);
    match checkpoints {
        db::Checkpoints::Litestream => tracing::info!(
            "replicated: checkpoints are left to Litestream, and a clean stop leaves the WAL to it"
        ),
        db::Checkpoints::Server if litestream.exists() => tracing::warn!(
            state = %litestream.display(),
            "Litestream has replicated this data file: while it does, start the server with \
             --replicated (BACKOFFICE_REPLICATED=1) so that checkpoints are left to it"
        ),
        db::Checkpoints::Server => {}
    }
    let boot = bootstrap(&config)?;
    if let Some(password) = &boot.generated_owner_password {
        let _ = writeln!(
            notice,
            "\nFirst start: the owner account is {} with the initial password\n\n    {password}\n\n\
             It is shown only this once; you will be asked to change it at first sign-in.\n",
            config.owner_email
        );
    }
    if demo {
        let empty = boot
            .db
            .read_blocking(backoffice::clients::store::no_clients)
            .map_err(|e| e.to_string())?;
        if empty {
            let summary = fill_demo(
                &boot.db,
                demo::Options {
                    clients: 100,
                    years: 3,
                    seed: 1,
                },
            )?;
            let _ = writeln!(notice, "{}", summary_text(&config.data, &summary));
        }
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let db = boot.db.clone();
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(config.listen)
            .await
            .map_err(|e| format!("cannot listen on {}: {e}", config.listen))?;
        let addr = listener.local_addr().map_err(|e| e.to_string())?;
        tracing::info!(data = %config.data.display(), "data file open");
        tracing::info!("listening on http://{addr}");
        // A service has no standard output (Wine hands it one that fails): the line is for a
        // console, and a failed write must not end the server as println! would.
        let _ = std::io::Write::write_fmt(
            &mut std::io::stdout(),
            format_args!("backoffice listening on http://{addr}\n"),
        );
        let state = AppState::new(boot.db, config);
        let scheduler = backoffice::jobs::spawn(&state);
        let router = app(state);
        let served = axum::serve(
            listener,
            router.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .with_graceful_shutdown(shutdown)
        .await
        .map_err(|e| e.to_string());
        // Between jobs, or after the batch a job is writing.
        tokio::task::spawn_blocking(move || scheduler.stop())
            .await
            .map_err(|e| e.to_string())?;
        served
    })?;
    let complete = db
        .checkpoint()
        .map_err(|e| format!("final checkpoint failed: {e}"))?;
    match checkpoints {
        _ if complete => tracing::info!("stopped cleanly; the data file is complete on its own"),
        db::Checkpoints::Litestream => {
            tracing::info!("stopped cleanly; the WAL is left to Litestream, which ships it to the replica")
        }
        db::Checkpoints::Server => tracing::warn!(
            "stopped cleanly, but another process (Litestream?) still reads the data file, so its WAL \
             could not be folded in: keep the -wal file beside the data file"
        ),
    }
    Ok(())
}

/// Ctrl-C, or SIGTERM from systemd: stop accepting, finish in-flight requests.
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
    tracing::info!("shutting down");
}

fn demo_data(data: PathBuf, options: demo::Options, owner_password: Option<String>) -> Result<(), String> {
    let started = std::time::Instant::now();
    let config = Config {
        data,
        owner_password,
        ..Config::default()
    };
    let boot = backoffice::setup::first_start::bootstrap(&config)?;
    if let Some(password) = &boot.generated_owner_password {
        println!("The owner is owner@localhost with the initial password {password}");
    }
    let summary = fill_demo(&boot.db, options)?;
    println!(
        "{} ({:.1} s)",
        summary_text(&config.data, &summary),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Page cache of the demo fill (KiB).
const DEMO_CACHE_KIB: i64 = 1 << 20;

/// Writes a demo office into `db` (which must have no clients yet) and checkpoints it (unless
/// Litestream does).
fn fill_demo(db: &db::Db, options: demo::Options) -> Result<demo::Summary, String> {
    let summary = db
        .write_blocking(|tx| {
            let owner = staff::store::first_owner(tx)?;
            let today = backoffice::plumbing::db::settings::office_today(tx)?;
            // The whole fill is one transaction: with the writer's usual cache its pages spill
            // to the WAL again and again before the commit.
            db::with_writer_cache(tx, DEMO_CACHE_KIB, |tx| demo::fill(tx, options, &owner, today))
        })
        .map_err(|e| e.to_string())?;
    db.checkpoint().map_err(|e| e.to_string())?;
    Ok(summary)
}

fn summary_text(data: &std::path::Path, s: &demo::Summary) -> String {
    format!(
        "Demo office written to {}: {} clients ({} leads), {} subscriptions ({} milestones), {} documents ({} lines), \
         {} payments ({} allocations; {} cancelled, {} advances refunded), {} audit rows; {} service contracts, \
         {} recurring plans, {} interactions, {} reminders; {} active SMS subscriptions ({} below 500 credits, {} flagged; \
         {} balance checks in the last {} days, {} balance changes); {} credentials left encrypted by the old system; \
         {} tickets ({} still open, {} timeline events); {} cloud-cost rows of {} societies on the cloud; \
         {} TDS certificates from {} societies deducting TDS ({} with their TAN).\n\
         Form 26AS uploaded: {} entries, {} societies' quarters short or not filed.\n\
         Employees: manager@demo.office and staff1..{}@demo.office, password {}",
        data.display(),
        s.clients,
        s.leads,
        s.subscriptions,
        s.milestones,
        s.documents,
        s.lines,
        s.payments,
        s.allocations,
        s.cancelled_payments,
        s.refunds,
        s.audit,
        s.contracts,
        s.plans,
        s.interactions,
        s.reminders,
        s.sms_subscriptions,
        s.sms_low,
        s.sms_flagged,
        s.sms_checks,
        demo::SMS_DAYS,
        s.sms_balance_changes,
        s.legacy_credentials,
        s.tickets,
        s.tickets_open,
        s.ticket_events,
        s.cloud_costs,
        s.cloud_clients,
        s.tds_certificates,
        s.tds_clients,
        s.tds_tans,
        s.tds_26as_entries,
        s.tds_26as_short,
        s.staff - 1,
        demo::STAFF_PASSWORD
    )
}

fn reset_password(data: &std::path::Path, identifier: &str) -> Result<(), String> {
    if !data.exists() {
        return Err(format!("{} does not exist", data.display()));
    }
    let db = db::Db::open(data)?;
    let password = auth_rules::initial_password();
    let hash = auth_rules::hash_password(&password);
    let identifier = identifier.trim().to_string();
    db.write_blocking(|tx| {
        let id = staff::store::id_by_identifier(tx, &identifier)?.ok_or_else(|| {
            backoffice::plumbing::error::AppError::not_found("account with that username or email")
        })?;
        staff::store::set_password(tx, &id, &hash, true)?;
        auth_store::end_sessions(tx, &id, None)?;
        audit(
            tx,
            Audit {
                entity: "staff",
                entity_id: Some(&id),
                action: "reset_password",
                user_id: None,
                before: None,
                after: Some(serde_json::json!({ "mustChangePassword": true, "via": "command line" })),
            },
        )
    })
    .map_err(|e| e.message.clone())?;
    println!("New initial password for {identifier}: {password}\nIt must be changed at the next sign-in.");
    Ok(())
}

fn restore(data: &std::path::Path, from: &std::path::Path) -> Result<(), String> {
    let replaced = backup::restore(data, from)?;
    let litestream = backup::litestream_state(data);
    if litestream.exists() {
        println!(
            "Litestream replicated the file this restore replaced, and does not follow a file put in its \
             place: with Litestream stopped, run `litestream reset {}` before starting it again \
             (packaging/litestream/README.md).",
            data.display()
        );
    }
    match replaced {
        Some(kept) => println!(
            "Restored {} from {}; the replaced file is kept as {}",
            data.display(),
            from.display(),
            kept.display()
        ),
        None => println!("Restored {} from {}", data.display(), from.display()),
    }
    Ok(())
}

fn check(data: &std::path::Path) -> Result<(), String> {
    let report = backup::check(data)?;
    println!("integrity: {}", report.integrity);
    match report.schema_version {
        Some(v) => println!("schema version: {v}"),
        None => println!("schema version: none (not a back-office data file)"),
    }
    println!("sqlite: {}", report.sqlite_version);
    if report.integrity == "ok" {
        Ok(())
    } else {
        Err("the integrity check found problems".into())
    }
}

/// Where the service keeps its data by default: `C:\ProgramData\Backoffice\backoffice.db`, on
/// the system drive. Not from %ProgramData%: in a service's environment Wine sets it to
/// `C:\users\Public`, and Windows does not support moving ProgramData off the system drive.
/// Written as a string so that a test on Linux reads the same path.
#[cfg_attr(not(windows), allow(dead_code))]
fn windows_default_data(system_drive: Option<&str>) -> PathBuf {
    let drive = system_drive.filter(|d| !d.is_empty()).unwrap_or("C:");
    PathBuf::from(format!(r"{drive}\ProgramData\Backoffice\backoffice.db"))
}

/// The Windows service's server: settings from the environment only (a service has no command
/// line of its own), data under ProgramData by default, logs in `backoffice.log` beside the data.
#[cfg(windows)]
fn serve_as_service(shutdown: tokio::sync::oneshot::Receiver<()>) -> Result<(), String> {
    #[derive(Parser)]
    struct FromEnvironment {
        #[command(flatten)]
        serve: ServeArgs,
    }
    let mut args = FromEnvironment::try_parse_from(["backoffice"])
        .map_err(|e| e.to_string())?
        .serve;
    if std::env::var_os("BACKOFFICE_DATA").is_none() {
        args.data = windows_default_data(std::env::var("SystemDrive").ok().as_deref());
    }
    let folder = args
        .data
        .parent()
        .map(std::path::Path::to_path_buf)
        .unwrap_or_default();
    std::fs::create_dir_all(&folder).map_err(|e| format!("cannot create {}: {e}", folder.display()))?;
    let log_path = folder.join("backoffice.log");
    let log = std::fs::File::options()
        .create(true)
        .append(true)
        .open(&log_path)
        .map_err(|e| format!("cannot open {}: {e}", log_path.display()))?;
    let mut notice = log.try_clone().map_err(|e| e.to_string())?;
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()),
        )
        .with_writer(std::sync::Mutex::new(log))
        .with_ansi(false)
        .init();
    if let Err(why) = winservice::ensure_restart_on_failure() {
        tracing::warn!("{why}");
    }
    serve(
        args,
        async move {
            let _ = shutdown.await;
        },
        &mut notice,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_service_keeps_its_data_in_programdata_on_the_system_drive() {
        let path = |drive| windows_default_data(drive).to_string_lossy().into_owned();
        assert_eq!(path(None), r"C:\ProgramData\Backoffice\backoffice.db");
        assert_eq!(path(Some("")), r"C:\ProgramData\Backoffice\backoffice.db");
        assert_eq!(path(Some("D:")), r"D:\ProgramData\Backoffice\backoffice.db");
    }
}
