use std::fmt;
use std::net::SocketAddr;

/// Where requests go: a resolved `http://` URL.
#[derive(Debug, Clone)]
pub struct Target {
    pub uri: hyper::Uri,
    pub host_header: String,
    pub addrs: Vec<SocketAddr>,
}

#[derive(Debug)]
pub enum TargetError {
    Unparsable(String),
    UnsupportedScheme(String),
    NoHost,
    Dns { host: String, error: String },
}

impl fmt::Display for TargetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TargetError::Unparsable(u) => write!(f, "{u:?} is not a URL"),
            TargetError::UnsupportedScheme(s) => {
                write!(
                    f,
                    "scheme {s:?} is not supported (http:// only; put TLS in front with a proxy)"
                )
            }
            TargetError::NoHost => write!(f, "the URL has no host"),
            TargetError::Dns { host, error } => write!(f, "cannot resolve {host:?}: {error}"),
        }
    }
}

impl std::error::Error for TargetError {}

impl Target {
    pub async fn resolve(url: &str) -> Result<Target, TargetError> {
        let uri: hyper::Uri = url
            .parse()
            .map_err(|_| TargetError::Unparsable(url.to_string()))?;
        match uri.scheme_str() {
            Some("http") => {}
            Some(other) => return Err(TargetError::UnsupportedScheme(other.to_string())),
            None => {
                return Err(TargetError::Unparsable(format!(
                    "{url} (no http:// scheme)"
                )))
            }
        }
        let host = uri.host().ok_or(TargetError::NoHost)?.to_string();
        let port = uri.port_u16().unwrap_or(80);
        let addrs: Vec<SocketAddr> = tokio::net::lookup_host((host.as_str(), port))
            .await
            .map_err(|e| TargetError::Dns {
                host: host.clone(),
                error: e.to_string(),
            })?
            .collect();
        if addrs.is_empty() {
            return Err(TargetError::Dns {
                host,
                error: "no addresses".into(),
            });
        }
        let host_header = match uri.port_u16() {
            Some(p) => format!("{host}:{p}"),
            None => host.clone(),
        };
        Ok(Target {
            uri,
            host_header,
            addrs,
        })
    }

    /// The request line's target: path and query.
    pub fn path(&self) -> String {
        self.uri
            .path_and_query()
            .map_or("/".to_string(), |p| p.as_str().to_string())
    }
}
