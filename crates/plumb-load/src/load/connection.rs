use super::target::Target;
use bytes::Bytes;
use http_body_util::Full;
use hyper::client::conn::http1::{self, SendRequest};
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;

pub type Sender = SendRequest<Full<Bytes>>;

/// Opens one keep-alive HTTP/1.1 connection; its driver runs as a local task.
pub async fn connect(target: &Target) -> Result<Sender, String> {
    let mut last = String::new();
    for addr in &target.addrs {
        match TcpStream::connect(addr).await {
            Ok(stream) => {
                let _ = stream.set_nodelay(true);
                let (sender, conn) = http1::handshake(TokioIo::new(stream))
                    .await
                    .map_err(|e| format!("handshake: {e}"))?;
                tokio::task::spawn_local(async move {
                    let _ = conn.await;
                });
                return Ok(sender);
            }
            Err(e) => last = format!("connect {addr}: {}", e.kind()),
        }
    }
    Err(last)
}
