//! gRPC reflection of each service, distributed: it lists and describes only what that
//! process serves, asked the way grpcurl asks.

use crate::common;

use tonic_reflection::pb::v1::{
    ServerReflectionRequest, server_reflection_client::ServerReflectionClient,
    server_reflection_request::MessageRequest, server_reflection_response::MessageResponse,
};

/// The answer, or None for an error status (an unknown symbol).
async fn ask(url: &str, request: MessageRequest) -> Option<MessageResponse> {
    let channel = tonic::transport::Channel::from_shared(url.to_owned())
        .unwrap()
        .connect()
        .await
        .unwrap();
    let mut client = ServerReflectionClient::new(channel);
    let request = ServerReflectionRequest {
        host: String::new(),
        message_request: Some(request),
    };
    let mut replies = client
        .server_reflection_info(tokio_stream::iter([request]))
        .await
        .unwrap()
        .into_inner();
    replies.message().await.ok()?.unwrap().message_response
}

async fn listed(url: &str) -> Vec<String> {
    let Some(MessageResponse::ListServicesResponse(list)) =
        ask(url, MessageRequest::ListServices(String::new())).await
    else {
        panic!("no service list from {url}")
    };
    let mut names: Vec<String> = list.service.into_iter().map(|s| s.name).collect();
    names.sort();
    names
}

async fn describes(url: &str, symbol: &str) -> bool {
    matches!(
        ask(url, MessageRequest::FileContainingSymbol(symbol.into())).await,
        Some(MessageResponse::FileDescriptorResponse(_))
    )
}

#[tokio::test]
async fn each_service_reflects_only_its_own_services() {
    let site = common::site::distributed().await;
    let settings = &site.gateway_settings;
    let processes = [
        (
            settings.shipments_url.clone().unwrap(),
            vec![
                "logistics.v1.AuditService",
                "logistics.v1.CustomerPortalService",
                "logistics.v1.CustomerService",
                "logistics.v1.PickupService",
                "logistics.v1.QuoteService",
                "logistics.v1.RateCardService",
                "logistics.v1.ShipmentExceptionService",
                "logistics.v1.ShipmentNoteService",
                "logistics.v1.ShipmentService",
            ],
        ),
        (
            settings.auth_url.clone().unwrap(),
            vec!["logistics.v1.ApiKeyService", "logistics.v1.AuthService"],
        ),
        (
            settings.notifications_url.clone().unwrap(),
            vec![
                "logistics.v1.CustomerWebhookService",
                "logistics.v1.NotificationService",
                "logistics.v1.WebhookService",
            ],
        ),
        (
            settings.preferences_url.clone().unwrap(),
            vec!["logistics.v1.PreferenceService"],
        ),
    ];
    let every: Vec<&str> = processes.iter().flat_map(|(_, own)| own.clone()).collect();
    for (url, own) in &processes {
        let mut expected: Vec<String> = own
            .iter()
            .map(|s| s.to_string())
            .chain([
                "grpc.health.v1.Health".into(),
                "grpc.reflection.v1.ServerReflection".into(),
            ])
            .collect();
        expected.sort();
        assert_eq!(listed(url).await, expected, "{url}");
        for service in &every {
            assert_eq!(
                describes(url, service).await,
                own.contains(service),
                "{url} describing {service}"
            );
        }
        assert!(
            !describes(url, "logistics.v1.SessionService").await,
            "the gateway's own service is no service's"
        );
    }
}
