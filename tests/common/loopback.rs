//! A fake service on a free loopback port: each connection is handled on a thread of its own
//! by `handle` with the service's shared state. Std only: the benchmark includes it too.

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;

pub fn serve<S: Send + Sync + 'static>(
    state: Arc<S>,
    handle: fn(TcpStream, &S) -> std::io::Result<()>,
) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let state = state.clone();
            std::thread::spawn(move || {
                let _ = handle(stream, &state);
            });
        }
    });
    addr
}
