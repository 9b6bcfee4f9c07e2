//! A new shipment and its two e-mails are written together, in both stores: both or neither.

use crate::common;

use std::sync::Arc;

use common::shipment;
use outbox::{OutboxStore, State, Template};
use shipments::error::ShipmentError;
use shipments::privacy::{AccessGrant, Party, seal_of, verify_access};
use shipments::store::{Edit, Effects, ShipmentStore};
use shipments::updates::{EmailRule, EmailRules, Event, Links};

fn links() -> Links {
    Links {
        public_url: "https://ship.example/".into(),
        tokens: service_auth::TokenKey::generate(),
    }
}

async fn shipment_and_emails_are_written_together(
    store: Arc<dyn ShipmentStore>,
    outbox: Arc<dyn OutboxStore>,
) {
    let s = shipment("Ada Shipper", "Auckland");
    let links = links();
    let emails = shipments::emails::notifications(&s, &links, &EmailRules::default());
    store
        .insert(
            &s,
            &Effects {
                emails: emails.clone(),
                ..Effects::default()
            },
        )
        .await
        .unwrap();
    let queued = outbox
        .list(&Default::default(), 10, None)
        .await
        .unwrap()
        .notifications;
    assert_eq!(queued.len(), 2);
    let shipper = queued
        .iter()
        .find(|n| n.template == Template::Shipper)
        .unwrap();
    let receiver = queued
        .iter()
        .find(|n| n.template == Template::Receiver)
        .unwrap();
    assert_eq!(shipper.state, State::Queued);
    // Each party's link opens the full view of this shipment for that party.
    let access = |url: &str| -> AccessGrant {
        let prefix = format!("https://ship.example/track/{}?access=", s.tracking_number);
        let token = url
            .strip_prefix(&prefix)
            .expect("a tracking link with access");
        verify_access(
            &links.tokens,
            s.tracking_number.as_str(),
            &seal_of(&s),
            token,
        )
        .unwrap()
    };
    assert_eq!(access(&shipper.params["url"]).party, Party::Shipper);
    assert_eq!(
        access(&receiver.params["tracking_url"]).party,
        Party::Receiver
    );
    assert_eq!(
        access(&receiver.params["tracking_url"]).sub,
        s.tracking_number.as_str()
    );
    assert_eq!(
        shipper.params["packages"],
        "2 x Bale - Merino wool (100 x 50 x 50 cm, 5 kg)"
    );
    assert_eq!(receiver.params["expected_delivery_date"], "2026-12-24");

    // A refused shipment (its number is taken) leaves no e-mail behind.
    let mut clash = shipment("Bo", "Oslo");
    clash.tracking_number = s.tracking_number.clone();
    let clash_emails = shipments::emails::notifications(&clash, &links, &EmailRules::default());
    assert!(matches!(
        store
            .insert(
                &clash,
                &Effects {
                    emails: clash_emails.clone(),
                    ..Effects::default()
                }
            )
            .await,
        Err(ShipmentError::DuplicateTrackingNumber)
    ));
    assert_eq!(
        outbox
            .list(&Default::default(), 10, None)
            .await
            .unwrap()
            .notifications
            .len(),
        2,
        "nothing half-written"
    );
    assert_eq!(outbox.backlog().await.unwrap(), 2);
}

#[tokio::test(flavor = "multi_thread")]
async fn sqlite_writes_shipment_and_emails_together() {
    let (store, outbox, _dir) = common::sqlite_stores();
    shipment_and_emails_are_written_together(store, outbox).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn mongo_writes_shipment_and_emails_together() {
    if let Some((store, outbox)) = common::mongo_stores().await {
        shipment_and_emails_are_written_together(store, outbox).await;
    }
}

async fn rules_pick_the_creation_emails(
    store: Arc<dyn ShipmentStore>,
    outbox: Arc<dyn OutboxStore>,
) {
    let mut rules = EmailRules::default();
    rules.0.insert(
        Event::Created,
        EmailRule {
            shipper: false,
            receiver: true,
            subscribers: true,
        },
    );
    let s = shipment("Ada Shipper", "Auckland");
    let emails = shipments::emails::notifications(&s, &links(), &rules);
    store
        .insert(
            &s,
            &Effects {
                emails: emails.clone(),
                ..Effects::default()
            },
        )
        .await
        .unwrap();
    let mine: Vec<_> = outbox
        .list(&Default::default(), 100, None)
        .await
        .unwrap()
        .notifications
        .into_iter()
        .filter(|n| n.tracking_number == s.tracking_number.as_str())
        .collect();
    assert_eq!(mine.len(), 1);
    assert_eq!(mine[0].template, Template::Receiver);
}

async fn an_edit_writes_its_emails_with_the_change_or_not_at_all(
    store: Arc<dyn ShipmentStore>,
    outbox: Arc<dyn OutboxStore>,
) {
    let s = shipment("Ada", "Accra");
    store.insert(&s, &Effects::default()).await.unwrap();
    let email = |to: &str| {
        let mut n = outbox::Notification::new(
            Template::StatusUpdate,
            to,
            "",
            Default::default(),
            shipments::domain::now(),
        );
        n.tracking_number = s.tracking_number.to_string();
        n
    };
    let written = email("rita@example.com");
    let kept = written.clone();
    let moved: Edit = Arc::new(move |s| {
        s.current_location = "Kumasi".into();
        Ok(Effects {
            emails: vec![kept.clone()],
            ..Effects::default()
        })
    });
    store.update(&s.id, moved).await.unwrap();
    let never = email("nobody@example.com");
    let refused: Edit = Arc::new(move |s| {
        s.current_location = "half-written".into();
        let _ = &never;
        Err(ShipmentError::Invalid(Default::default()))
    });
    assert!(store.update(&s.id, refused).await.is_err());
    let mine: Vec<_> = outbox
        .list(&Default::default(), 100, None)
        .await
        .unwrap()
        .notifications
        .into_iter()
        .filter(|n| n.tracking_number == s.tracking_number.as_str())
        .collect();
    assert_eq!(mine.len(), 1, "one e-mail, from the edit that committed");
    assert_eq!(mine[0].id, written.id);
    assert_eq!(store.get(&s.id).await.unwrap().current_location, "Kumasi");
}

#[tokio::test(flavor = "multi_thread")]
async fn sqlite_follows_the_creation_rules() {
    let (store, outbox, _dir) = common::sqlite_stores();
    rules_pick_the_creation_emails(store, outbox).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn mongo_follows_the_creation_rules() {
    if let Some((store, outbox)) = common::mongo_stores().await {
        rules_pick_the_creation_emails(store, outbox).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn sqlite_writes_an_edit_and_its_emails_together() {
    let (store, outbox, _dir) = common::sqlite_stores();
    an_edit_writes_its_emails_with_the_change_or_not_at_all(store, outbox).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn mongo_writes_an_edit_and_its_emails_together() {
    if let Some((store, outbox)) = common::mongo_stores().await {
        an_edit_writes_its_emails_with_the_change_or_not_at_all(store, outbox).await;
    }
}
