//! Proof of delivery: the recipient's name, a signature drawn on screen and a photo. Images
//! are checked by their bytes, decoded and encoded again, so only their pixels are kept.

use std::io::Cursor;
use std::sync::Arc;

use audit::{Action, Actor, AuditEntry};
use image::{DynamicImage, ImageDecoder, ImageFormat, ImageReader};
use logistics_proto::v1 as pb;
use service_common::text::TextRule;
use tonic::Request;

use crate::convert::{self, Violations};
use crate::domain::{ProofOfDelivery, Shipment, Status, StoredImage, TrackingNumber};
use crate::error::{FieldViolation, ShipmentError};
use crate::service::ShipmentsService;
use crate::store::Effects;

pub const MAX_SIGNATURE_BYTES: usize = 512 * 1024;
pub const MAX_PHOTO_BYTES: usize = 8_000_000;
/// Larger images are refused before they are decoded (a small file can unpack to gigabytes).
const MAX_SIDE: u32 = 10_000;
const MAX_DECODED_BYTES: u64 = 300 * 1024 * 1024;

pub const NOT_DELIVERED: &str = "Proof of delivery can only be recorded for a delivered shipment.";

/// An image as it will be stored: encoded again from its pixels.
#[derive(Debug)]
pub struct CleanImage {
    pub bytes: Vec<u8>,
    pub content_type: &'static str,
    extension: &'static str,
}

/// Checks an uploaded image by its bytes (not its name or claimed type), decodes it within
/// limits, turns it upright and encodes it again: no metadata survives (location, camera).
pub fn clean_image(
    field: &str,
    bytes: &[u8],
    max_bytes: usize,
    formats: &[ImageFormat],
) -> Result<CleanImage, FieldViolation> {
    let kinds = if formats.len() == 1 {
        "a PNG image"
    } else {
        "a JPEG or PNG image"
    };
    if bytes.len() > max_bytes {
        let limit = if max_bytes >= 1_000_000 {
            format!("{} MB", max_bytes / 1_000_000)
        } else {
            format!("{} KB", max_bytes / 1024)
        };
        return Err(FieldViolation::new(
            field,
            format!("must be at most {limit}"),
        ));
    }
    let not_image = || FieldViolation::new(field, format!("must be {kinds}"));
    let format = image::guess_format(bytes).map_err(|_| not_image())?;
    if !formats.contains(&format) {
        return Err(not_image());
    }
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(MAX_DECODED_BYTES);
    reader.limits(limits);
    let unreadable =
        || FieldViolation::new(field, format!("is not a readable image; send {kinds}"));
    let mut decoder = reader.into_decoder().map_err(|_| unreadable())?;
    let orientation = decoder.orientation().ok();
    let mut picture = DynamicImage::from_decoder(decoder).map_err(|_| unreadable())?;
    if let Some(orientation) = orientation {
        picture.apply_orientation(orientation);
    }
    let mut out = Cursor::new(Vec::new());
    let (content_type, extension) = if format == ImageFormat::Jpeg {
        let encoder = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 85);
        picture
            .to_rgb8()
            .write_with_encoder(encoder)
            .map_err(|_| unreadable())?;
        ("image/jpeg", "jpg")
    } else {
        picture
            .write_to(&mut out, ImageFormat::Png)
            .map_err(|_| unreadable())?;
        ("image/png", "png")
    };
    Ok(CleanImage {
        bytes: out.into_inner(),
        content_type,
        extension,
    })
}

/// The checked parts of a RecordProofOfDelivery request.
struct Recorded {
    recipient_name: String,
    signature: Option<CleanImage>,
    photo: Option<CleanImage>,
}

fn check(request: &pb::RecordProofOfDeliveryRequest) -> Result<Recorded, ShipmentError> {
    let mut v = Violations::default();
    let recipient_name = v.text(
        "recipient_name",
        &request.recipient_name,
        TextRule::line(100),
    );
    let mut image = |field: &str, bytes: &[u8], max: usize, formats: &[ImageFormat]| {
        if bytes.is_empty() {
            return None;
        }
        clean_image(field, bytes, max, formats)
            .map_err(|e| v.add(e.field, e.description))
            .ok()
    };
    let signature = image(
        "signature_png",
        &request.signature_png,
        MAX_SIGNATURE_BYTES,
        &[ImageFormat::Png],
    );
    let photo = image(
        "photo",
        &request.photo,
        MAX_PHOTO_BYTES,
        &[ImageFormat::Jpeg, ImageFormat::Png],
    );
    v.into_result(Recorded {
        recipient_name,
        signature,
        photo,
    })
    .map_err(ShipmentError::Invalid)
}

fn blob_name(shipment_id: &str, kind: &str, image: &CleanImage) -> String {
    // A new name each time: the proof in force keeps its images until the new one is saved.
    format!(
        "deliveries/{shipment_id}/{kind}-{}.{}",
        crate::domain::new_id(),
        image.extension
    )
}

impl ShipmentsService {
    pub(crate) async fn record_proof_of_delivery(
        &self,
        request: pb::RecordProofOfDeliveryRequest,
        actor: Actor,
    ) -> Result<pb::Shipment, ShipmentError> {
        let id = crate::service::id("id", &request.id)?;
        let recorded = tokio::task::spawn_blocking(move || check(&request))
            .await
            .map_err(|e| ShipmentError::Internal(e.to_string()))??;
        let current = self.store.get(&id).await?;
        if current.status != Status::Delivered {
            return Err(ShipmentError::Precondition(NOT_DELIVERED.into()));
        }
        let mut stored = Vec::new();
        let mut keep = |kind: &str, image: &Option<CleanImage>| {
            image.as_ref().map(|image| {
                let blob = blob_name(&id, kind, image);
                stored.push((blob.clone(), image.bytes.clone()));
                StoredImage {
                    blob,
                    content_type: image.content_type.to_owned(),
                }
            })
        };
        let proof = ProofOfDelivery {
            recipient_name: recorded.recipient_name,
            signature: keep("signature", &recorded.signature),
            photo: keep("photo", &recorded.photo),
            recorded_at: crate::domain::now(),
            recorded_by: actor.email.clone(),
        };
        for (blob, bytes) in &stored {
            self.blobs.put(blob, bytes).await?;
        }
        let replaced = Arc::new(std::sync::Mutex::new(None));
        let edit: crate::store::Edit = {
            let proof = proof.clone();
            let replaced = replaced.clone();
            let actor = actor.clone();
            Arc::new(move |shipment: &mut Shipment| {
                if shipment.status != Status::Delivered {
                    return Err(ShipmentError::Precondition(NOT_DELIVERED.into()));
                }
                let unchanged = shipment.clone();
                let before = shipment.proof_of_delivery.replace(proof.clone());
                let parts: Vec<&str> = [
                    proof.signature.as_ref().map(|_| "signature"),
                    proof.photo.as_ref().map(|_| "photo"),
                ]
                .into_iter()
                .flatten()
                .collect();
                let summary = if parts.is_empty() {
                    format!("Received by {}", proof.recipient_name)
                } else {
                    format!(
                        "Received by {} ({})",
                        proof.recipient_name,
                        parts.join(", ")
                    )
                };
                *replaced.lock().expect("not poisoned") = before;
                Ok(Effects {
                    events: crate::webhooks::changed(
                        &unchanged,
                        shipment,
                        "",
                        crate::domain::now(),
                    ),
                    audit: vec![
                        AuditEntry::new(
                            &actor,
                            Action::ProofOfDelivery,
                            &shipment.id,
                            shipment.tracking_number.as_str(),
                        )
                        .with_summary(summary),
                    ],
                    ..Effects::default()
                })
            })
        };
        let saved = match self.store.update(&id, edit).await {
            Ok(saved) => saved,
            Err(e) => {
                for (blob, _) in &stored {
                    let _ = self.blobs.delete(blob).await;
                }
                return Err(e);
            }
        };
        self.forget_lookup(&saved.tracking_number);
        let old = replaced.lock().expect("not poisoned").take();
        if let Some(old) = old {
            for image in [old.signature, old.photo].into_iter().flatten() {
                if let Err(e) = self.blobs.delete(&image.blob).await {
                    tracing::warn!(blob = %image.blob, error = %e, "replaced image not removed");
                }
            }
        }
        tracing::info!(tracking_number = %saved.tracking_number, "proof of delivery recorded");
        Ok(convert::shipment_to_proto(&saved))
    }

    /// An image of the proof, for staff and for whoever may see the shipment's full view;
    /// anyone else is told there is no such shipment.
    pub(crate) async fn proof_of_delivery_image(
        &self,
        request: Request<pb::GetProofOfDeliveryImageRequest>,
    ) -> Result<pb::ProofOfDeliveryImage, ShipmentError> {
        let number = TrackingNumber::parse(&request.get_ref().tracking_number)?;
        let kind = pb::ProofOfDeliveryImageKind::try_from(request.get_ref().kind)
            .ok()
            .filter(|k| *k != pb::ProofOfDeliveryImageKind::Unspecified)
            .ok_or_else(|| FieldViolation::new("kind", "must be SIGNATURE or PHOTO"))?;
        let shipment = self.store.find_by_tracking_number(&number).await?;
        let seal = crate::privacy::seal_of(&shipment);
        if self
            .full_view(&request, &request.get_ref().access_token, &number, &seal)?
            .is_none()
        {
            return Err(ShipmentError::NotFound);
        }
        let proof = shipment.proof_of_delivery.ok_or(ShipmentError::NotFound)?;
        let image = match kind {
            pb::ProofOfDeliveryImageKind::Signature => proof.signature,
            _ => proof.photo,
        }
        .ok_or(ShipmentError::NotFound)?;
        let data = self
            .blobs
            .get(&image.blob)
            .await?
            .ok_or(ShipmentError::NotFound)?;
        Ok(pb::ProofOfDeliveryImage {
            content_type: image.content_type,
            data,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png(width: u32, height: u32) -> Vec<u8> {
        let mut out = Cursor::new(Vec::new());
        DynamicImage::new_rgb8(width, height)
            .write_to(&mut out, ImageFormat::Png)
            .unwrap();
        out.into_inner()
    }

    #[test]
    fn a_png_is_encoded_again_and_text_is_refused() {
        let clean = clean_image("photo", &png(4, 3), MAX_PHOTO_BYTES, &[ImageFormat::Png]).unwrap();
        assert_eq!(clean.content_type, "image/png");
        let back = image::load_from_memory(&clean.bytes).unwrap();
        assert_eq!((back.width(), back.height()), (4, 3));
        let refused = clean_image(
            "photo",
            b"GIF89a not really",
            MAX_PHOTO_BYTES,
            &[ImageFormat::Png],
        );
        assert_eq!(refused.unwrap_err().description, "must be a PNG image");
    }

    #[test]
    fn a_cut_image_and_an_oversized_one_are_refused_by_name() {
        let mut cut = png(50, 50);
        cut.truncate(cut.len() / 2);
        let error = clean_image(
            "signature_png",
            &cut,
            MAX_SIGNATURE_BYTES,
            &[ImageFormat::Png],
        )
        .unwrap_err();
        assert_eq!(error.field, "signature_png");
        let big = vec![0u8; MAX_SIGNATURE_BYTES + 1];
        let error = clean_image(
            "signature_png",
            &big,
            MAX_SIGNATURE_BYTES,
            &[ImageFormat::Png],
        )
        .unwrap_err();
        assert_eq!(error.description, "must be at most 512 KB");
    }
}
