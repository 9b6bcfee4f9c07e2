//! Settings every binary shares, read once at start by clap from flags or the environment;
//! each binary's own settings struct flattens the groups it uses, so `--help` lists them all.

use std::path::PathBuf;

/// Parses a binary's settings from its arguments and the environment, or exits with clap's
/// message; each value is shown as its variable (`--port <PORT>`), so an error names the
/// variable an operator set.
pub fn parse<C: clap::Parser>() -> C {
    let command = C::command().mut_args(|arg| match arg.get_env().and_then(|e| e.to_str()) {
        Some(env) => {
            let env = env.to_owned();
            arg.value_name(env)
        }
        None => arg,
    });
    let matches = command.clone().get_matches();
    C::from_arg_matches(&matches).unwrap_or_else(|e| e.format(&mut command.clone()).exit())
}

/// Which store a service opens.
#[derive(Clone, Debug)]
pub enum StoreConfig {
    /// SQLite files in a data directory.
    Embedded { data_dir: PathBuf },
    /// MongoDB at `uri`, in `database`.
    Mongo { uri: String, database: String },
}

/// Where the data lives: SQLite files under a directory, or MongoDB.
#[derive(clap::Args, Clone, Debug)]
#[command(next_help_heading = "Store")]
pub struct StoreSettings {
    /// Directory of the embedded SQLite databases (unused with MongoDB).
    #[arg(long, env = "DATA_DIR", default_value = "./data")]
    pub data_dir: PathBuf,
    /// Use MongoDB instead of SQLite, e.g. mongodb://user:pass@host/?replicaSet=rs0.
    #[arg(long, env = "MONGODB_URI", hide_env_values = true)]
    pub mongodb_uri: Option<String>,
    /// Database name in MongoDB.
    #[arg(long, env = "MONGODB_DATABASE", default_value = "logistics")]
    pub mongodb_database: String,
}

impl StoreSettings {
    /// The embedded store in `data_dir`.
    pub fn embedded(data_dir: impl Into<PathBuf>) -> Self {
        Self {
            data_dir: data_dir.into(),
            mongodb_uri: None,
            mongodb_database: "logistics".into(),
        }
    }

    pub fn config(&self) -> StoreConfig {
        match self.mongodb_uri.as_deref().filter(|u| !u.is_empty()) {
            Some(uri) => StoreConfig::Mongo {
                uri: uri.to_owned(),
                database: self.mongodb_database.clone(),
            },
            None => StoreConfig::Embedded {
                data_dir: self.data_dir.clone(),
            },
        }
    }
}

/// The site's public address, for the links in e-mails.
#[derive(clap::Args, Clone, Debug, PartialEq)]
pub struct SiteSettings {
    /// The site's public address; e-mails link to PUBLIC_URL/track/{trackingNumber}.
    #[arg(long, env = "PUBLIC_URL", default_value = "http://localhost:8080")]
    pub public_url: String,
}

impl Default for SiteSettings {
    fn default() -> Self {
        Self {
            public_url: "http://localhost:8080".into(),
        }
    }
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogFormat {
    /// Human-readable lines (coloured on a terminal).
    Text,
    /// One JSON object per line.
    Json,
}

/// Logs, metrics and traces.
#[derive(clap::Args, Clone, Debug)]
#[command(next_help_heading = "Logs, metrics and traces")]
pub struct TelemetrySettings {
    /// Log filter: warn, info, debug, shipments=debug, ...
    #[arg(long = "log", env = "RUST_LOG", default_value = "info")]
    pub log_filter: String,
    /// `text` (human-readable lines) or `json` (one JSON object per line).
    #[arg(long, env = "LOG_FORMAT", value_enum, default_value = "text")]
    pub log_format: LogFormat,
    /// Where /metrics is served (host:port), or `off`; each binary has its own default port.
    #[arg(long, env = "METRICS_ADDR")]
    pub metrics_addr: Option<String>,
    /// Export traces over OTLP/HTTP to this endpoint, e.g. http://otel-collector:4318.
    #[arg(long, env = "OTEL_EXPORTER_OTLP_ENDPOINT")]
    pub otlp_endpoint: Option<String>,
}

impl Default for TelemetrySettings {
    fn default() -> Self {
        Self {
            log_filter: "info".into(),
            log_format: LogFormat::Text,
            metrics_addr: Some("off".into()),
            otlp_endpoint: None,
        }
    }
}
