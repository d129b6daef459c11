//! A few threads of their own that run queued jobs: the server's reads (one per core) and its
//! password hashing (one per core).
//!
//! Rather than the blocking pool: there any of dozens of threads runs a job, and glibc gives
//! each thread that allocates its own malloc arena, which keeps what the job freed. Hashing
//! there took the server to 1.7 GB through the benchmark's sign-ins; the same few threads keep
//! memory to a few arenas' worth, and a queued job costs no thread hand-off (docs/benchmark.md).

use crate::plumbing::error::AppError;
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};

type Job = Box<dyn FnOnce() + Send>;

/// The queue of a set of worker threads; the threads end when the last handle goes.
#[derive(Clone)]
pub struct Workers(Sender<Job>);

impl Workers {
    /// Starts `threads` threads named `name-N`.
    pub fn start(name: &str, threads: usize) -> Result<Workers, String> {
        let (queue, jobs) = std::sync::mpsc::channel::<Job>();
        let jobs = Arc::new(Mutex::new(jobs));
        for n in 0..threads {
            let jobs = jobs.clone();
            std::thread::Builder::new()
                .name(format!("{name}-{n}"))
                .spawn(move || {
                    loop {
                        // The lock is held while waiting for a job, not while running it.
                        let job = jobs.lock().unwrap_or_else(|p| p.into_inner()).recv();
                        let Ok(job) = job else { break };
                        // A panic drops the job's reply (its request answers 500); the thread
                        // goes on.
                        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
                    }
                })
                .map_err(|e| format!("cannot start the {name} threads: {e}"))?;
        }
        Ok(Workers(queue))
    }

    /// Runs `work` on one of the threads, in turn with what was queued before it.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, AppError> {
        let (reply, answer) = tokio::sync::oneshot::channel();
        self.0
            .send(Box::new(move || {
                let _ = reply.send(work());
            }))
            .map_err(|_| AppError::internal("the worker threads have stopped"))?;
        answer.await.map_err(|_| AppError::internal("a job panicked"))
    }
}

#[cfg(test)]
mod tests {
    use super::Workers;

    #[tokio::test]
    async fn jobs_run_on_the_named_threads_and_a_panic_spares_them() {
        let workers = Workers::start("test-worker", 2).unwrap();
        let name = workers
            .run(|| std::thread::current().name().map(str::to_string))
            .await
            .unwrap();
        assert!(name.unwrap().starts_with("test-worker-"));
        let panicked = workers.run(|| panic!("a job panics")).await;
        assert_eq!(panicked.map_err(|e| e.code), Err::<(), _>("internal"));
        for n in 0..4 {
            assert_eq!(workers.run(move || n * 2).await.unwrap(), n * 2);
        }
    }
}
