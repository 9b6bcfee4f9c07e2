//! Settings every binary shares, read once at start by clap from flags or the environment;
//! each binary's own settings struct flattens the groups it uses, so `--help` lists them all.

use std::path::PathBuf;

pub use secrecy::{ExposeSecret, SecretString};

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

/// Settings from `flags` alone, the environment ignored, every other value clap's default:
/// tests and tools run on the defaults production has, whatever the shell exports.
pub fn from_flags<A: clap::Args>(flags: &[&str]) -> Result<A, clap::Error> {
    let command = A::augment_args(clap::Command::new("settings"))
        .mut_args(|arg| arg.env(None::<&'static str>));
    let matches =
        command.try_get_matches_from(std::iter::once("settings").chain(flags.iter().copied()))?;
    A::from_arg_matches(&matches)
}

/// Settings at clap's defaults, the environment ignored.
pub fn defaults<A: clap::Args>() -> A {
    from_flags(&[])
        .unwrap_or_else(|e| panic!("the defaults of {}: {e}", std::any::type_name::<A>()))
}

/// A secret setting (a key, a password, a URL with credentials): `Debug` shows `[REDACTED]`.
pub fn secret(text: &str) -> Result<SecretString, std::convert::Infallible> {
    Ok(SecretString::from(text))
}

/// Which store a service opens.
#[derive(Clone, Debug)]
pub enum StoreConfig {
    /// SQLite files in a data directory.
    Embedded { data_dir: PathBuf },
    /// MongoDB at `uri`, in `database`.
    Mongo { uri: SecretString, database: String },
}

/// Where the data lives: SQLite files under a directory, or MongoDB.
#[derive(clap::Args, Clone, Debug)]
#[command(next_help_heading = "Store")]
pub struct StoreSettings {
    /// Directory of the embedded SQLite databases (unused with MongoDB).
    #[arg(long, env = "DATA_DIR", default_value = "./data")]
    pub data_dir: PathBuf,
    /// Use MongoDB instead of SQLite, e.g. mongodb://user:pass@host/?replicaSet=rs0.
    #[arg(long, env = "MONGODB_URI", hide_env_values = true, value_parser = secret)]
    pub mongodb_uri: Option<SecretString>,
    /// Database name in MongoDB.
    #[arg(long, env = "MONGODB_DATABASE", default_value = "logistics")]
    pub mongodb_database: String,
}

impl StoreSettings {
    /// The embedded store in `data_dir`.
    pub fn embedded(data_dir: impl Into<PathBuf>) -> Self {
        Self {
            data_dir: data_dir.into(),
            ..defaults()
        }
    }

    pub fn config(&self) -> StoreConfig {
        match self
            .mongodb_uri
            .as_ref()
            .filter(|u| !u.expose_secret().is_empty())
        {
            Some(uri) => StoreConfig::Mongo {
                uri: uri.clone(),
                database: self.mongodb_database.clone(),
            },
            None => StoreConfig::Embedded {
                data_dir: self.data_dir.clone(),
            },
        }
    }
}

/// The company's name when no white-label file names another: the spec's.
pub const SPEC_COMPANY_NAME: &str = "Parcel Shipping Express";

/// The site's public address, for the links in e-mails, and whose site it is.
#[derive(clap::Args, Clone, Debug, PartialEq)]
pub struct SiteSettings {
    /// The site's public address; e-mails link to PUBLIC_URL/track/{trackingNumber}. Unset:
    /// http://localhost:PORT, the port the gateway listens on
    #[arg(long = "public-url", env = "PUBLIC_URL")]
    pub given_public_url: Option<String>,
    /// The white-label file (brand.json, as the web app is built with) whose name, support
    /// address, postal address, logo and colours the e-mails the product writes itself carry,
    /// and whose name is the carrier of customers' bookings; unset, the spec's company.
    #[arg(long, env = "BRAND_FILE")]
    pub brand_file: Option<std::path::PathBuf>,
    /// The port the site listens on, when this process serves it (the gateway).
    #[arg(skip = 8080_u16)]
    pub site_port: u16,
}

impl SiteSettings {
    /// PUBLIC_URL, else this machine at the site's port (the gateway's default port in a service
    /// started on its own).
    pub fn public_url(&self) -> String {
        self.given_public_url
            .clone()
            .unwrap_or_else(|| format!("http://localhost:{}", self.site_port))
    }

    /// The company's name: BRAND_FILE's `name`, else the spec's. The notifications service
    /// refuses to start on a file it cannot read; here such a file only leaves the default.
    pub fn company_name(&self) -> String {
        let Some(file) = &self.brand_file else {
            return SPEC_COMPANY_NAME.to_owned();
        };
        let named = std::fs::read_to_string(file)
            .ok()
            .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
            .and_then(|brand| Some(brand.get("name")?.as_str()?.trim().to_owned()))
            .filter(|name| !name.is_empty());
        named.unwrap_or_else(|| {
            tracing::warn!(file = %file.display(), "BRAND_FILE names no company: the spec's is used");
            SPEC_COMPANY_NAME.to_owned()
        })
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

#[cfg(test)]
mod tests {
    use super::*;

    fn site(brand_file: Option<std::path::PathBuf>) -> SiteSettings {
        SiteSettings {
            given_public_url: None,
            brand_file,
            site_port: 8080,
        }
    }

    #[test]
    fn the_company_is_the_brand_files_name_else_the_specs() {
        let dir = tempfile::tempdir().unwrap();
        let named = dir.path().join("brand.json");
        std::fs::write(&named, r#"{"name": " Acme Freight ", "colors": {}}"#).unwrap();
        let nameless = dir.path().join("nameless.json");
        std::fs::write(&nameless, r#"{"colors": {}}"#).unwrap();
        assert_eq!(site(Some(named)).company_name(), "Acme Freight");
        assert_eq!(site(None).company_name(), SPEC_COMPANY_NAME);
        assert_eq!(site(Some(nameless)).company_name(), SPEC_COMPANY_NAME);
        assert_eq!(
            site(Some(dir.path().join("missing.json"))).company_name(),
            SPEC_COMPANY_NAME
        );
    }
}
