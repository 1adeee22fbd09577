//! Running the binary and reading the shared test material.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_robotrules"))
}

/// Runs the binary with `args` and `stdin`, and returns its output.
pub fn run(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = bin()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn robotrules");
    let mut input = child.stdin.take().expect("stdin");
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().expect("wait");
    writer.join().expect("writer");
    out
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

pub fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("utf-8 stdout")
}

pub fn shared() -> PathBuf {
    robotrules_testdata::shared_dir()
}

/// Writes `body` to a fresh file and returns the directory and the path.
pub fn robots_file(body: &[u8]) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("robots.txt");
    std::fs::write(&path, body).expect("write");
    let path = path.to_str().expect("utf-8 path").to_string();
    (dir, path)
}

/// A tiny HTTP server on loopback that answers every request with the same
/// status, headers and body, keeps each request's head, and counts
/// requests. It stops when dropped.
pub struct Server {
    pub addr: std::net::SocketAddr,
    pub hits: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    pub requests: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl Server {
    pub fn start(status: u16, body: &'static str) -> Server {
        Server::with(status, &[], body.to_string())
    }

    /// A server whose answers also carry `headers`.
    pub fn with(
        status: u16,
        headers: &[(&str, &str)],
        body: String,
    ) -> Server {
        use std::io::{Read, Write};
        use std::sync::atomic::Ordering;
        let listener =
            std::net::TcpListener::bind("127.0.0.1:0").expect("bind loopback");
        listener.set_nonblocking(true).unwrap();
        let addr = listener.local_addr().unwrap();
        let hits = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let requests = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let stop =
            std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let (h, r, s) = (hits.clone(), requests.clone(), stop.clone());
        let extra: String =
            headers.iter().map(|(k, v)| format!("{k}: {v}\r\n")).collect();
        let head = format!(
            "HTTP/1.1 {status} X\r\nContent-Length: {}\r\n{extra}Connection: close\r\n\r\n",
            body.len()
        );
        std::thread::spawn(move || {
            while !s.load(Ordering::SeqCst) {
                match listener.accept() {
                    Ok((mut socket, _)) => {
                        socket.set_nonblocking(false).unwrap();
                        let mut buf = [0u8; 4096];
                        let n = socket.read(&mut buf).unwrap_or(0);
                        r.lock().unwrap().push(
                            String::from_utf8_lossy(&buf[..n]).into_owned(),
                        );
                        h.fetch_add(1, Ordering::SeqCst);
                        let _ = socket.write_all(head.as_bytes());
                        let _ = socket.write_all(body.as_bytes());
                    }
                    Err(_) => {
                        std::thread::sleep(std::time::Duration::from_millis(5))
                    }
                }
            }
        });
        Server { addr, hits, requests, stop }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::SeqCst);
    }
}
