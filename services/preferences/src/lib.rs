//! The preferences service: each signed-in user's settings, today dark mode, in SQLite
//! (embedded) or the MongoDB collection `userPreferences` keyed by user id.

pub mod store;

use std::net::SocketAddr;
use std::sync::Arc;

use logistics_proto::v1::{
    self as pb,
    preference_service_server::{PreferenceService, PreferenceServiceServer},
};
use service_auth::TokenKey;
use service_auth::TokenSettings;
use service_auth::access::Enforced;
use service_common::Built;
use service_common::mask::Mask;
use service_common::settings::{ExposeSecret, StoreConfig, StoreSettings, TelemetrySettings};
use tonic::{Request, Response, Status};

pub use store::{
    MongoPreferenceStore, PreferenceChange, PreferenceStore, Preferences, SqlitePreferenceStore,
    StoreError,
};

impl From<StoreError> for Status {
    fn from(e: StoreError) -> Self {
        tracing::warn!(error = %e, "preference store unavailable");
        Status::unavailable("Preferences are unavailable right now. Please try again.")
    }
}

/// The preferences an update may name.
const UPDATABLE: &[&str] = &["is_dark_mode"];

#[derive(Clone)]
pub struct PreferencesService {
    store: Arc<dyn PreferenceStore>,
}

fn to_proto(p: &Preferences) -> pb::Preferences {
    pb::Preferences {
        is_dark_mode: p.is_dark_mode,
    }
}

#[tonic::async_trait]
impl PreferenceService for PreferencesService {
    #[tracing::instrument(skip_all)]
    async fn get_preferences(
        &self,
        request: Request<pb::GetPreferencesRequest>,
    ) -> Result<Response<pb::Preferences>, Status> {
        let caller = service_auth::access::caller(&request)?;
        Ok(Response::new(to_proto(&self.store.get(&caller.sub).await?)))
    }

    #[tracing::instrument(skip_all)]
    async fn update_preferences(
        &self,
        request: Request<pb::UpdatePreferencesRequest>,
    ) -> Result<Response<pb::Preferences>, Status> {
        let caller = service_auth::access::caller(&request)?;
        let request = request.into_inner();
        let given = request.preferences.unwrap_or_default();
        let mut change = PreferenceChange::default();
        match &request.update_mask {
            // A named field is set, or forgotten when absent ("follow the system").
            Some(mask) if !mask.paths.is_empty() => {
                let mask = Mask::parse(Some(mask), UPDATABLE).map_err(Status::from)?;
                if mask.contains("is_dark_mode") {
                    change.is_dark_mode = Some(given.is_dark_mode);
                }
            }
            // No mask sets every field given.
            _ => change.is_dark_mode = given.is_dark_mode.map(Some),
        }
        let saved = self.store.update(&caller.sub, change).await?;
        tracing::info!(user = %caller.sub, "preferences saved");
        Ok(Response::new(to_proto(&saved)))
    }
}

pub async fn open_store(config: &StoreConfig) -> anyhow::Result<Arc<dyn PreferenceStore>> {
    Ok(match config {
        StoreConfig::Embedded { data_dir } => Arc::new(SqlitePreferenceStore::open(
            &data_dir.join("preferences.sqlite3"),
        )?),
        StoreConfig::Mongo { uri, database } => {
            Arc::new(MongoPreferenceStore::connect(uri.expose_secret(), database).await?)
        }
    })
}

pub fn server(
    store: Arc<dyn PreferenceStore>,
    tokens: TokenKey,
) -> Enforced<PreferenceServiceServer<PreferencesService>> {
    Enforced::new(
        tokens,
        PreferenceServiceServer::new(PreferencesService { store }),
    )
}

/// The service, whoever starts it: its binary, the all-in-one gateway and the tests.
pub async fn build(
    store: &StoreConfig,
    tokens: TokenKey,
) -> anyhow::Result<Built<Enforced<PreferenceServiceServer<PreferencesService>>>> {
    Ok(Built::new(server(open_store(store).await?, tokens)))
}

/// The `preferences` binary: the service on its own (distributed mode).
#[derive(clap::Parser, Debug)]
#[command(name = "preferences", version, about = "The preferences gRPC service")]
pub struct Cli {
    /// Listen address of the gRPC service.
    #[arg(long, env = "PREFERENCES_ADDR", default_value = "127.0.0.1:50054")]
    pub addr: SocketAddr,
    #[command(flatten)]
    pub store: StoreSettings,
    #[command(flatten)]
    pub tokens: TokenSettings,
    #[command(flatten)]
    pub telemetry: TelemetrySettings,
    #[command(subcommand)]
    pub command: Option<service_common::backup::DataCommand>,
}
