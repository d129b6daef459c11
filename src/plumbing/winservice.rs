//! Running as a Windows service. Compiled on Windows only: `#[cfg(windows)] mod winservice;`.
//!
//! `backoffice service install` registers the service "backoffice" (automatic start) whose
//! command is `backoffice service run`. Windows then starts that command, which calls `run`: it
//! serves until Windows asks the service to stop (a service stop, or the machine shutting down),
//! then the server stops gracefully and the service reports Stopped.

use std::ffi::OsString;
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use tokio::sync::oneshot;
use windows_service::service::{
    ServiceAccess, ServiceAction, ServiceActionType, ServiceControl, ServiceControlAccept,
    ServiceErrorControl, ServiceExitCode, ServiceFailureActions, ServiceFailureResetPeriod, ServiceInfo,
    ServiceStartType, ServiceState, ServiceStatus, ServiceType,
};
use windows_service::service_control_handler::{self, ServiceControlHandlerResult, ServiceStatusHandle};
use windows_service::service_dispatcher;
use windows_service::service_manager::{ServiceManager, ServiceManagerAccess};

/// The service's name (for `sc`, `net start` and the registry).
const NAME: &str = "backoffice";
/// The name shown in the Services console.
const DISPLAY_NAME: &str = "Back office";
/// How long Windows is asked to wait for a graceful stop (as TimeoutStopSec=30 under systemd).
const STOP_WAIT: Duration = Duration::from_secs(30);

/// The server: runs until the receiver gets `()` (or its sender is dropped), then stops cleanly.
type Serve = fn(shutdown: oneshot::Receiver<()>) -> Result<(), String>;

/// The server to run, handed from `run` to `service_main` (which Windows calls with only its
/// arguments).
static SERVE: OnceLock<Serve> = OnceLock::new();
/// The status handle, so that the control handler can report StopPending.
static STATUS: OnceLock<ServiceStatusHandle> = OnceLock::new();
/// How the server ended, handed back from `service_main` to `run`.
static OUTCOME: Mutex<Option<Result<(), String>>> = Mutex::new(None);

// Generates `ffi_service_main`, the entry point handed to Windows, which calls `service_main`.
windows_service::define_windows_service!(ffi_service_main, service_main);

/// Registers the service "backoffice": automatic start, running this executable as
/// `backoffice service run` under the LocalSystem account, restarted if it fails.
///
/// Once the service is registered, install has succeeded: the description and the
/// restart-on-failure actions are a best effort, and what the service manager refused is
/// answered as warnings (Wine implements neither, and the service runs without them). Only a
/// service that could not be registered is an error, with what to do about it.
pub fn install() -> Result<Vec<String>, String> {
    let manager = ServiceManager::local_computer(
        None::<&str>,
        ServiceManagerAccess::CONNECT | ServiceManagerAccess::CREATE_SERVICE,
    )
    .map_err(|e| explain_registration("cannot open the service manager", e))?;
    // Asked first, as Wine's service manager registers a name twice without a word.
    if manager.open_service(NAME, ServiceAccess::QUERY_STATUS).is_ok() {
        return Err(format!("cannot register the service{ALREADY_REGISTERED}"));
    }
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this program's path: {e}"))?;
    let info = ServiceInfo {
        name: OsString::from(NAME),
        display_name: OsString::from(DISPLAY_NAME),
        service_type: ServiceType::OWN_PROCESS,
        start_type: ServiceStartType::AutoStart,
        error_control: ServiceErrorControl::Normal,
        executable_path: exe,
        launch_arguments: vec![OsString::from("service"), OsString::from("run")],
        dependencies: vec![],
        account_name: None, // LocalSystem
        account_password: None,
    };
    // START access is needed to set a Restart failure action.
    let service = manager
        .create_service(&info, ServiceAccess::CHANGE_CONFIG | ServiceAccess::START)
        .map_err(|e| explain_registration("cannot register the service", e))?;
    let mut warnings = Vec::new();
    if let Err(e) = service.set_description("Back office server: one program, one SQLite data file.") {
        warnings.push(explain("the service has no description", e));
    }
    if let Err(e) = set_restart_on_failure(&service) {
        warnings.push(e);
    }
    Ok(warnings)
}

/// Restart 5 s after a failure, three times a day at most (as Restart=on-failure); a non-zero
/// exit code counts as a failure too, not only a crash.
fn set_restart_on_failure(service: &windows_service::service::Service) -> Result<(), String> {
    let restart = || ServiceAction {
        action_type: ServiceActionType::Restart,
        delay: Duration::from_secs(5),
    };
    service
        .update_failure_actions(ServiceFailureActions {
            reset_period: ServiceFailureResetPeriod::After(Duration::from_secs(24 * 60 * 60)),
            reboot_msg: None,
            command: None,
            actions: Some(vec![restart(), restart(), restart()]),
        })
        .and_then(|()| service.set_failure_actions_on_non_crash_failures(true))
        .map_err(|e| {
            format!(
                "{}; the service works, but Windows will not restart it after a failure. To set that by hand: \
                 sc failure {NAME} reset= 86400 actions= restart/5000/restart/5000/restart/5000",
                explain("cannot set the restart-on-failure actions", e)
            )
        })
}

/// Called by the running service: the installer (the MSI) registers the service without
/// restart-on-failure actions, which wixl cannot write, so the service sets them on itself; as
/// LocalSystem it may. Answers why they could not be set.
pub fn ensure_restart_on_failure() -> Result<(), String> {
    let manager = ServiceManager::local_computer(None::<&str>, ServiceManagerAccess::CONNECT)
        .map_err(|e| explain("cannot open the service manager", e))?;
    let service = manager
        .open_service(NAME, ServiceAccess::CHANGE_CONFIG | ServiceAccess::START)
        .map_err(|e| explain("cannot open the service", e))?;
    set_restart_on_failure(&service)
}

/// Stops the service (gracefully) if it runs, then removes its registration. The data stays.
pub fn uninstall() -> Result<(), String> {
    let manager = ServiceManager::local_computer(None::<&str>, ServiceManagerAccess::CONNECT)
        .map_err(|e| explain_registration("cannot open the service manager", e))?;
    let service = manager
        .open_service(
            NAME,
            ServiceAccess::QUERY_STATUS | ServiceAccess::STOP | ServiceAccess::DELETE,
        )
        .map_err(|e| explain_registration("cannot open the service", e))?;
    let state = || service.query_status().map(|s| s.current_state);
    if state().map_err(|e| explain("cannot query the service", e))? == ServiceState::Running {
        service
            .stop()
            .map_err(|e| explain("cannot stop the service", e))?;
    }
    let deadline = Instant::now() + STOP_WAIT + Duration::from_secs(5);
    while state().is_ok_and(|s| s != ServiceState::Stopped) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(500));
    }
    // Windows removes the registration once the service has stopped and no handle is open.
    service
        .delete()
        .map_err(|e| explain("cannot remove the service", e))?;
    Ok(())
}

/// Runs as the service: only works when started by Windows (`backoffice service run` from the
/// registration). Blocks until the service has stopped; returns how the server ended.
pub fn run(serve: fn(shutdown: oneshot::Receiver<()>) -> Result<(), String>) -> Result<(), String> {
    SERVE
        .set(serve)
        .map_err(|_| "the service is already running in this process".to_string())?;
    service_dispatcher::start(NAME, ffi_service_main).map_err(|e| {
        explain(
            "cannot run as a service (this command is started by Windows after \
             `backoffice service install`; in a console, use `backoffice serve`)",
            e,
        )
    })?;
    OUTCOME
        .lock()
        .ok()
        .and_then(|mut outcome| outcome.take())
        .unwrap_or(Ok(()))
}

/// Called by Windows on a thread of its own once the dispatcher has started.
fn service_main(_arguments: Vec<OsString>) {
    let outcome = run_service();
    if let Ok(mut slot) = OUTCOME.lock() {
        *slot = Some(outcome);
    }
}

fn run_service() -> Result<(), String> {
    let serve = *SERVE.get().ok_or("no server to run")?;
    let (shutdown_tx, shutdown_rx) = oneshot::channel();
    let mut shutdown_tx = Some(shutdown_tx);
    // Called by Windows (on another thread) for each control sent to the service.
    let handler = move |control| match control {
        ServiceControl::Stop | ServiceControl::Shutdown => {
            // Ask Windows to wait while in-flight requests finish and the WAL is checkpointed.
            let _ = report(ServiceState::StopPending, ServiceExitCode::NO_ERROR);
            if let Some(tx) = shutdown_tx.take() {
                let _ = tx.send(());
            }
            ServiceControlHandlerResult::NoError
        }
        ServiceControl::Interrogate => ServiceControlHandlerResult::NoError,
        _ => ServiceControlHandlerResult::NotImplemented,
    };
    let status = service_control_handler::register(NAME, handler)
        .map_err(|e| explain("cannot register the service control handler", e))?;
    let _ = STATUS.set(status);
    report(ServiceState::Running, ServiceExitCode::NO_ERROR)?;
    // The server runs on this thread; a panic is turned into an error so Stopped is still reported.
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| serve(shutdown_rx)))
        .unwrap_or_else(|_| Err("the server panicked".to_string()));
    let exit_code = match result {
        Ok(()) => ServiceExitCode::NO_ERROR,
        Err(_) => ServiceExitCode::ServiceSpecific(1),
    };
    report(ServiceState::Stopped, exit_code)?;
    result
}

/// Tells Windows the service's state; Running accepts Stop and Shutdown, the others nothing.
fn report(state: ServiceState, exit_code: ServiceExitCode) -> Result<(), String> {
    let handle = STATUS
        .get()
        .ok_or("the service status handle is not registered")?;
    let pending = state == ServiceState::StopPending;
    handle
        .set_service_status(ServiceStatus {
            service_type: ServiceType::OWN_PROCESS,
            current_state: state,
            controls_accepted: if state == ServiceState::Running {
                ServiceControlAccept::STOP | ServiceControlAccept::SHUTDOWN
            } else {
                ServiceControlAccept::empty()
            },
            exit_code,
            checkpoint: u32::from(pending),
            wait_hint: if pending { STOP_WAIT } else { Duration::ZERO },
            process_id: None,
        })
        .map_err(|e| explain("cannot report the service status", e))
}

const ALREADY_REGISTERED: &str = " (a service named \"backoffice\" is already registered: run \
    `backoffice service uninstall` first, then install again; the data stays)";

/// Why the service could not be registered (or opened), and what to do about it.
fn explain_registration(what: &str, error: windows_service::Error) -> String {
    let code = match &error {
        windows_service::Error::Winapi(io) => io.raw_os_error(),
        _ => None,
    };
    let todo = match code {
        // ERROR_ACCESS_DENIED
        Some(5) => " (open the Command Prompt with \"Run as administrator\" and run this again)",
        // ERROR_SERVICE_EXISTS
        Some(1073) => ALREADY_REGISTERED,
        // ERROR_SERVICE_MARKED_FOR_DELETE
        Some(1072) => {
            " (the previous \"backoffice\" service is still being removed: close the Services console, \
                        or restart Windows, then install again)"
        }
        // ERROR_SERVICE_DOES_NOT_EXIST
        Some(1060) => " (no service named \"backoffice\" is registered)",
        _ => "",
    };
    format!("{}{todo}", explain(what, error))
}

/// An operator's sentence; the crate's own text for a Windows error hides the error itself.
fn explain(what: &str, error: windows_service::Error) -> String {
    match error {
        windows_service::Error::Winapi(io) => format!("{what}: {io}"),
        other => format!("{what}: {other}"),
    }
}
