//! Proof of delivery over gRPC: recorded by an agent for a delivered shipment, images checked
//! and stripped of metadata, shown to staff and to the parties with the full view only.

use crate::common;

use std::io::Cursor;

use common::service::{caller, create, start, valid_input, violations};
use logistics_proto::v1 as pb;
use tonic::Code;

fn png(width: u32, height: u32) -> Vec<u8> {
    let mut out = Cursor::new(Vec::new());
    image::DynamicImage::new_rgb8(width, height)
        .write_to(&mut out, image::ImageFormat::Png)
        .unwrap();
    out.into_inner()
}

/// A JPEG photo carrying an EXIF block with a location in it, as phones write them.
fn jpeg_with_location() -> Vec<u8> {
    let mut plain = Cursor::new(Vec::new());
    image::DynamicImage::new_rgb8(64, 48)
        .write_to(&mut plain, image::ImageFormat::Jpeg)
        .unwrap();
    let plain = plain.into_inner();
    let mut exif = b"Exif\0\0MM\0*\0\0\0\x08\0\0\0\0\0\0".to_vec();
    exif.extend_from_slice(b"GPS 59.9139N 10.7522E SECRET-SPOT");
    let length = (exif.len() + 2) as u16;
    let mut out = plain[..2].to_vec(); // SOI
    out.extend_from_slice(&[0xFF, 0xE1]);
    out.extend_from_slice(&length.to_be_bytes());
    out.extend_from_slice(&exif);
    out.extend_from_slice(&plain[2..]);
    out
}

/// A PNG whose header claims `width` × `height` pixels (a few bytes that would unpack to
/// gigabytes); its pixels never come.
fn png_claiming(width: u32, height: u32) -> Vec<u8> {
    let mut out = png(1, 1);
    out[16..20].copy_from_slice(&width.to_be_bytes());
    out[20..24].copy_from_slice(&height.to_be_bytes());
    let mut crc = 0xFFFF_FFFFu32;
    for &byte in &out[12..29] {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    out[29..33].copy_from_slice(&(!crc).to_be_bytes());
    out
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

async fn delivered(running: &mut common::service::Running) -> pb::Shipment {
    let s = create(&mut running.client, valid_input()).await;
    running
        .client
        .update_shipment_tracking(pb::UpdateShipmentTrackingRequest {
            id: s.id.clone(),
            status: pb::ShipmentStatus::Delivered.into(),
            current_location: "Rotterdam".into(),
            remarks: "Delivered".into(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner()
}

fn image_request(
    number: &str,
    kind: pb::ProofOfDeliveryImageKind,
    access: &str,
) -> pb::GetProofOfDeliveryImageRequest {
    pb::GetProofOfDeliveryImageRequest {
        tracking_number: number.into(),
        kind: kind.into(),
        access_token: access.into(),
    }
}

/// The shipment's `kind` image as staff (the running service's admin) read it.
async fn staff_image(
    running: &mut common::service::Running,
    number: &str,
    kind: pb::ProofOfDeliveryImageKind,
) -> Result<pb::ProofOfDeliveryImage, tonic::Status> {
    running
        .client
        .get_proof_of_delivery_image(image_request(number, kind, ""))
        .await
        .map(tonic::Response::into_inner)
}

#[tokio::test]
async fn an_agent_records_it_and_only_pixels_are_kept() {
    let mut running = start().await;
    let pending = create(&mut running.client, valid_input()).await;
    let agent = running
        .key
        .mint(&caller("agent"), service_auth::CALL_TOKEN_LIFETIME);
    let mut as_agent = running.client_as(&agent);
    let record = |id: &str, photo: Vec<u8>| pb::RecordProofOfDeliveryRequest {
        id: id.into(),
        recipient_name: "Jan de Vries".into(),
        signature_png: png(300, 100),
        photo,
    };
    let refused = as_agent
        .record_proof_of_delivery(record(&pending.id, Vec::new()))
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::FailedPrecondition);
    assert_eq!(
        refused.message(),
        "Proof of delivery can only be recorded for a delivered shipment."
    );

    let s = delivered(&mut running).await;
    let saved = as_agent
        .record_proof_of_delivery(record(&s.id, jpeg_with_location()))
        .await
        .unwrap()
        .into_inner();
    let proof = saved.proof_of_delivery.unwrap();
    assert_eq!(proof.recipient_name, "Jan de Vries");
    assert!(proof.has_signature && proof.has_photo);
    assert_eq!(proof.recorded_by, "someone@example.com");

    let photo = staff_image(
        &mut running,
        &s.tracking_number,
        pb::ProofOfDeliveryImageKind::Photo,
    )
    .await
    .unwrap();
    assert_eq!(photo.content_type, "image/jpeg");
    assert!(
        !contains(&photo.data, b"Exif") && !contains(&photo.data, b"SECRET-SPOT"),
        "no metadata kept"
    );
    let decoded = image::load_from_memory(&photo.data).unwrap();
    assert_eq!((decoded.width(), decoded.height()), (64, 48));
    let signature = staff_image(
        &mut running,
        &s.tracking_number,
        pb::ProofOfDeliveryImageKind::Signature,
    )
    .await
    .unwrap();
    assert_eq!(signature.content_type, "image/png");
    assert_eq!(
        image::load_from_memory(&signature.data).unwrap().width(),
        300
    );

    // Recording again replaces the proof and its images.
    let replaced = as_agent
        .record_proof_of_delivery(pb::RecordProofOfDeliveryRequest {
            id: s.id.clone(),
            recipient_name: "Neighbour at no. 90".into(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner()
        .proof_of_delivery
        .unwrap();
    assert!(!replaced.has_photo && !replaced.has_signature);
    let gone = staff_image(
        &mut running,
        &s.tracking_number,
        pb::ProofOfDeliveryImageKind::Photo,
    )
    .await
    .unwrap_err();
    assert_eq!(gone.code(), Code::NotFound);
    let kept: Vec<_> = walk(&running.dir.path().join("blobs/deliveries"));
    assert!(kept.is_empty(), "replaced images are removed: {kept:?}");
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .flatten()
        .flat_map(|e| {
            if e.path().is_dir() {
                walk(&e.path())
            } else {
                vec![e.path()]
            }
        })
        .collect()
}

#[tokio::test]
async fn bad_images_and_names_are_refused_by_field_and_nothing_is_kept() {
    let mut running = start().await;
    let s = delivered(&mut running).await;
    let mut cut = png(80, 80);
    cut.truncate(cut.len() / 2);
    let cases: Vec<(pb::RecordProofOfDeliveryRequest, &str, &str)> = vec![
        (
            pb::RecordProofOfDeliveryRequest {
                recipient_name: " ".into(),
                ..Default::default()
            },
            "recipient_name",
            "is required",
        ),
        (
            pb::RecordProofOfDeliveryRequest {
                photo: b"%PDF-1.7 not a photo".to_vec(),
                ..Default::default()
            },
            "photo",
            "must be a JPEG or PNG image",
        ),
        (
            pb::RecordProofOfDeliveryRequest {
                photo: vec![0xFF; 8_500_000],
                ..Default::default()
            },
            "photo",
            "must be at most 8 MB",
        ),
        (
            pb::RecordProofOfDeliveryRequest {
                signature_png: jpeg_with_location(),
                ..Default::default()
            },
            "signature_png",
            "must be a PNG image",
        ),
        (
            pb::RecordProofOfDeliveryRequest {
                photo: png_claiming(10_000, 10_000),
                ..Default::default()
            },
            "photo",
            "must be at most 25 megapixels",
        ),
        (
            pb::RecordProofOfDeliveryRequest {
                signature_png: png_claiming(100_000, 300),
                ..Default::default()
            },
            "signature_png",
            "must be at most 25 megapixels",
        ),
        (
            pb::RecordProofOfDeliveryRequest {
                signature_png: cut,
                ..Default::default()
            },
            "signature_png",
            "is not a readable image; send a PNG image",
        ),
    ];
    for (mut request, field, message) in cases {
        request.id = s.id.clone();
        if request.recipient_name.is_empty() {
            request.recipient_name = "Jan".into();
        }
        let refused = running
            .client
            .record_proof_of_delivery(request)
            .await
            .unwrap_err();
        assert_eq!(refused.code(), Code::InvalidArgument, "{field}");
        assert_eq!(violations(&refused), [field]);
        assert!(refused.message().contains(message), "{}", refused.message());
    }
    // 50 MB is refused before it is read.
    let huge = running
        .client
        .record_proof_of_delivery(pb::RecordProofOfDeliveryRequest {
            id: s.id.clone(),
            recipient_name: "Jan".into(),
            photo: vec![0; 50_000_000],
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(huge.code(), Code::ResourceExhausted);
    let unchanged = running
        .client
        .get_shipment(pb::GetShipmentRequest { id: s.id.clone() })
        .await
        .unwrap()
        .into_inner();
    assert!(unchanged.proof_of_delivery.is_none());
    assert!(walk(&running.dir.path().join("blobs")).is_empty());
}

#[tokio::test]
async fn parties_see_it_with_the_full_view_and_nobody_else() {
    let mut running = start().await;
    let s = delivered(&mut running).await;
    running
        .client
        .record_proof_of_delivery(pb::RecordProofOfDeliveryRequest {
            id: s.id.clone(),
            recipient_name: "Jan de Vries".into(),
            signature_png: png(120, 40),
            ..Default::default()
        })
        .await
        .unwrap();
    let visitor = || {
        logistics_proto::v1::shipment_service_client::ShipmentServiceClient::new(
            running.channel.clone(),
        )
    };
    let signature = pb::ProofOfDeliveryImageKind::Signature;
    let hidden = visitor()
        .get_proof_of_delivery_image(image_request(&s.tracking_number, signature, ""))
        .await
        .unwrap_err();
    assert_eq!(
        (hidden.code(), hidden.message()),
        (Code::NotFound, "Shipment not found")
    );
    let limited = visitor()
        .get_shipment_by_tracking_number(pb::GetShipmentByTrackingNumberRequest {
            tracking_number: s.tracking_number.clone(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    assert!(
        limited.proof_of_delivery.is_none(),
        "not in the limited view"
    );

    let grant = running.key.sign_link(
        shipments::privacy::ACCESS_AUDIENCE,
        &shipments::privacy::AccessGrant {
            sub: s.tracking_number.clone(),
            party: shipments::privacy::Party::Receiver,
            until: chrono::Utc::now().timestamp() + 600,
            contacts: shipments::privacy::seal_of_proto(&s),
        },
        std::time::Duration::from_secs(600),
    );
    let shown = visitor()
        .get_proof_of_delivery_image(image_request(&s.tracking_number, signature, &grant))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(shown.content_type, "image/png");
    let full = visitor()
        .get_shipment_by_tracking_number(pb::GetShipmentByTrackingNumberRequest {
            tracking_number: s.tracking_number.clone(),
            access_token: grant.clone(),
        })
        .await
        .unwrap()
        .into_inner();
    let proof = full.proof_of_delivery.unwrap();
    assert_eq!(proof.recipient_name, "Jan de Vries");
    assert!(
        proof.recorded_by.is_empty(),
        "staff names stay in the office"
    );
    let other = create(&mut running.client, valid_input()).await;
    let expired = running.key.sign_link_expiring_at(
        shipments::privacy::ACCESS_AUDIENCE,
        &shipments::privacy::AccessGrant {
            sub: s.tracking_number.clone(),
            party: shipments::privacy::Party::Receiver,
            until: chrono::Utc::now().timestamp() - 60,
            contacts: shipments::privacy::seal_of_proto(&s),
        },
        chrono::Utc::now().timestamp() - 60,
    );
    for (number, bad, what) in [
        (
            &other.tracking_number,
            grant.clone(),
            "a link for another shipment",
        ),
        (&s.tracking_number, format!("{grant}x"), "a forged link"),
        (&s.tracking_number, expired, "an expired link"),
    ] {
        let refused = visitor()
            .get_proof_of_delivery_image(image_request(number, signature, &bad))
            .await
            .unwrap_err();
        assert_eq!(refused.code(), Code::InvalidArgument, "{what}");
        assert_eq!(violations(&refused), ["access_token"], "{what}");
    }
}

#[tokio::test]
async fn users_without_the_permission_cannot_record_it() {
    let mut running = start().await;
    let s = delivered(&mut running).await;
    let user = running
        .key
        .mint(&caller("user"), service_auth::CALL_TOKEN_LIFETIME);
    let refused = running
        .client_as(&user)
        .record_proof_of_delivery(pb::RecordProofOfDeliveryRequest {
            id: s.id,
            recipient_name: "Jan".into(),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::PermissionDenied);
}
