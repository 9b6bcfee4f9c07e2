//! Proof of delivery: the recipient's name, a signature drawn on screen and a photo. Images
//! are checked by their bytes, decoded and encoded again, so only their pixels are kept.

use std::io::Cursor;
use std::sync::{Arc, LazyLock};
use std::time::Duration;

use audit::{Action, Actor, AuditEntry};
use image::{DynamicImage, ImageDecoder, ImageFormat, ImageReader};
use logistics_proto::v1 as pb;
use service_common::text::TextRule;
use tokio::sync::{Semaphore, SemaphorePermit};
use tonic::Request;

use crate::convert;
use crate::domain::{ProofOfDelivery, Shipment, Status, StoredImage, TrackingNumber};
use crate::error::{FieldViolation, ShipmentError, Violations};
use crate::service::ShipmentsService;
use crate::store::Effects;

pub const MAX_SIGNATURE_BYTES: usize = 512 * 1024;
pub const MAX_PHOTO_BYTES: usize = 8_000_000;
/// The most pixels an image may have: a phone's 24-megapixel photo (5712 × 4284) fits. Larger
/// ones are refused from their header, before decoding (a small file can unpack to gigabytes).
pub const MAX_PIXELS: u64 = 25_000_000;
/// The longest side accepted; together with MAX_PIXELS it bounds every buffer.
const MAX_SIDE: u32 = 20_000;
/// The largest buffer decoding may allocate: MAX_PIXELS at four bytes each.
const MAX_DECODED_BYTES: u64 = MAX_PIXELS * 4;
/// How long a proof of delivery waits for its turn at image work before it is refused.
const IMAGE_WAIT: Duration = Duration::from_secs(10);
/// What a proof of delivery that found every image worker busy for IMAGE_WAIT is told.
pub const IMAGES_BUSY: &str = "Too many photos are being checked right now; try again in a minute.";

/// Image work (decoding, encoding) in the whole process: one at a time per core, as more would
/// only queue for the CPU while each held its memory.
static IMAGE_WORK: LazyLock<ImageGate> = LazyLock::new(|| {
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    ImageGate::new(cores, IMAGE_WAIT)
});

/// A bounded number of image jobs at once; a job that waits too long is refused.
pub struct ImageGate {
    permits: Semaphore,
    wait: Duration,
}

impl ImageGate {
    pub fn new(jobs: usize, wait: Duration) -> Self {
        Self {
            permits: Semaphore::new(jobs),
            wait,
        }
    }

    /// A turn at image work, or RESOURCE_EXHAUSTED after waiting `wait` for one.
    pub async fn enter(&self) -> Result<SemaphorePermit<'_>, ShipmentError> {
        match tokio::time::timeout(self.wait, self.permits.acquire()).await {
            Ok(Ok(permit)) => Ok(permit),
            _ => Err(ShipmentError::Exhausted(IMAGES_BUSY.into())),
        }
    }
}

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
    let unreadable = |e: image::ImageError| match e {
        image::ImageError::Limits(_) => too_large(field),
        _ => FieldViolation::new(field, format!("is not a readable image; send {kinds}")),
    };
    let mut decoder = reader.into_decoder().map_err(unreadable)?;
    let (width, height) = decoder.dimensions();
    if u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(too_large(field));
    }
    let orientation = decoder.orientation().ok();
    let mut picture = DynamicImage::from_decoder(decoder).map_err(unreadable)?;
    if let Some(orientation) = orientation {
        picture.apply_orientation(orientation);
    }
    let mut out = Cursor::new(Vec::new());
    let (content_type, extension) = if format == ImageFormat::Jpeg {
        let encoder = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 85);
        // into_rgb8 keeps the decoded buffer when it is RGB already (a copy would double it).
        picture
            .into_rgb8()
            .write_with_encoder(encoder)
            .map_err(unreadable)?;
        ("image/jpeg", "jpg")
    } else {
        picture
            .write_to(&mut out, ImageFormat::Png)
            .map_err(unreadable)?;
        ("image/png", "png")
    };
    Ok(CleanImage {
        bytes: out.into_inner(),
        content_type,
        extension,
    })
}

/// The refusal of an image with more pixels than MAX_PIXELS.
fn too_large(field: &str) -> FieldViolation {
    FieldViolation::new(
        field,
        format!(
            "must be at most {} megapixels (e.g. 6000 × 4000 pixels)",
            MAX_PIXELS / 1_000_000
        ),
    )
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
        let turn = if request.photo.is_empty() && request.signature_png.is_empty() {
            None
        } else {
            Some(IMAGE_WORK.enter().await?)
        };
        let recorded = tokio::task::spawn_blocking(move || {
            let _turn = turn;
            check(&request)
        })
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
        let (number, kind) = image_request(request.get_ref())?;
        let shipment = self.store.find_by_tracking_number(&number).await?;
        let seal = crate::privacy::seal_of(&shipment);
        if self
            .full_view(&request, &request.get_ref().access_token, &number, &seal)?
            .is_none()
        {
            return Err(ShipmentError::NotFound);
        }
        self.proof_image(shipment, kind).await
    }

    /// The `kind` image of the shipment's proof of delivery; NotFound when it has none.
    pub(crate) async fn proof_image(
        &self,
        shipment: crate::domain::Shipment,
        kind: pb::ProofOfDeliveryImageKind,
    ) -> Result<pb::ProofOfDeliveryImage, ShipmentError> {
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

/// The tracking number and image kind a request for a proof's image names.
pub(crate) fn image_request(
    request: &pb::GetProofOfDeliveryImageRequest,
) -> Result<(TrackingNumber, pb::ProofOfDeliveryImageKind), ShipmentError> {
    let number = TrackingNumber::parse(&request.tracking_number)?;
    let kind = pb::ProofOfDeliveryImageKind::try_from(request.kind)
        .ok()
        .filter(|k| *k != pb::ProofOfDeliveryImageKind::Unspecified)
        .ok_or_else(|| FieldViolation::new("kind", "must be SIGNATURE or PHOTO"))?;
    Ok((number, kind))
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

    #[test]
    fn an_image_of_too_many_pixels_is_refused_from_its_header() {
        // A real JPEG of 10000 × 10000 grey pixels in under 2 MB, and one just over the bound.
        for (width, height) in [(10_000, 10_000), (5_008, 5_008), (20_000, 1_264)] {
            let huge = solid_jpeg(width, height);
            assert!(huge.len() < MAX_PHOTO_BYTES);
            let refused = clean_image(
                "photo",
                &huge,
                MAX_PHOTO_BYTES,
                &[ImageFormat::Jpeg, ImageFormat::Png],
            )
            .unwrap_err();
            assert_eq!(refused.field, "photo");
            assert!(
                refused.description.contains("25 megapixels"),
                "{width}x{height}: {}",
                refused.description
            );
        }
        // A PNG header that claims 10000 × 10000 (its pixels never come).
        let mut header = png(1, 1);
        header[16..20].copy_from_slice(&10_000u32.to_be_bytes());
        header[20..24].copy_from_slice(&10_000u32.to_be_bytes());
        let crc = crc32(&header[12..29]);
        header[29..33].copy_from_slice(&crc.to_be_bytes());
        let refused = clean_image(
            "signature_png",
            &header,
            MAX_SIGNATURE_BYTES,
            &[ImageFormat::Png],
        )
        .unwrap_err();
        assert_eq!(refused.field, "signature_png");
        assert!(refused.description.contains("megapixels"), "{refused:?}");
        // A photo within the bound passes.
        let fits = solid_jpeg(4_000, 3_000);
        assert!(clean_image("photo", &fits, MAX_PHOTO_BYTES, &[ImageFormat::Jpeg]).is_ok());
    }

    /// The CRC of a PNG chunk (type and data).
    fn crc32(bytes: &[u8]) -> u32 {
        let mut crc = 0xFFFF_FFFFu32;
        for &byte in bytes {
            crc ^= u32::from(byte);
            for _ in 0..8 {
                crc = if crc & 1 == 1 {
                    (crc >> 1) ^ 0xEDB8_8320
                } else {
                    crc >> 1
                };
            }
        }
        !crc
    }

    #[tokio::test]
    async fn image_work_beyond_the_cores_waits_then_is_refused() {
        let gate = ImageGate::new(1, Duration::from_millis(50));
        let busy = gate.enter().await.unwrap();
        let refused = gate.enter().await.unwrap_err();
        assert!(
            matches!(&refused, ShipmentError::Exhausted(m) if m == IMAGES_BUSY),
            "{refused:?}"
        );
        drop(busy);
        assert!(
            gate.enter().await.is_ok(),
            "free again once the work is done"
        );
    }

    /// A real 10000 × 10000 JPEG of one grey, written directly (4:2:0, every block "no change"):
    /// about 1.8 MB that decodes to 300 MB of pixels.
    pub(crate) fn solid_jpeg(width: u16, height: u16) -> Vec<u8> {
        let mut out = vec![0xFF, 0xD8];
        let mut segment = |marker: u8, body: &[u8]| {
            out.extend([0xFF, marker]);
            out.extend(((body.len() + 2) as u16).to_be_bytes());
            out.extend(body);
        };
        segment(0xDB, &[[0u8].as_slice(), &[1; 64]].concat());
        let [w0, w1] = width.to_be_bytes();
        let [h0, h1] = height.to_be_bytes();
        segment(
            0xC0,
            &[8, h0, h1, w0, w1, 3, 1, 0x22, 0, 2, 0x11, 0, 3, 0x11, 0],
        );
        // One DC code (00: no change) and one AC code (0000: end of block).
        let table = |class: u8, length: usize| {
            let mut counts = [0u8; 16];
            counts[length - 1] = 1;
            [[class].as_slice(), &counts, &[0]].concat()
        };
        segment(0xC4, &table(0x00, 2));
        segment(0xC4, &table(0x10, 4));
        segment(0xC4, &table(0x01, 2));
        segment(0xC4, &table(0x11, 4));
        segment(0xDA, &[3, 1, 0x00, 2, 0x11, 3, 0x11, 0, 63, 0]);
        let mcus = u64::from(width).div_ceil(16) * u64::from(height).div_ceil(16);
        // Six blocks of six zero bits each per MCU.
        out.extend(std::iter::repeat_n(0u8, (mcus * 36).div_ceil(8) as usize));
        out.extend([0xFF, 0xD9]);
        out
    }

    /// The process's resident memory now and at its peak since the last reset, in KiB.
    fn memory() -> (u64, u64) {
        let status = std::fs::read_to_string("/proc/self/status").unwrap();
        let field = |name: &str| {
            status
                .lines()
                .find_map(|l| l.strip_prefix(name))
                .and_then(|rest| rest.split_whitespace().next()?.parse().ok())
                .unwrap()
        };
        (field("VmRSS:"), field("VmHWM:"))
    }

    /// Prints what cleaning a hostile photo costs (never asserts): `cargo test -p shipments
    /// --lib peak_memory -- --ignored --nocapture` (scripts/bench.sh runs it).
    #[test]
    #[ignore]
    fn peak_memory_of_a_huge_photo() {
        // Hostile (10000 × 10000) and the largest accepted (5000 × 5000).
        for (width, height) in [(10_000, 10_000), (5_000, 5_000)] {
            let photo = solid_jpeg(width, height);
            // Resets the peak (VmHWM) to the present.
            std::fs::write("/proc/self/clear_refs", "5").unwrap();
            let (before, _) = memory();
            let started = std::time::Instant::now();
            let cpu = cpu_seconds();
            let outcome = clean_image(
                "photo",
                &photo,
                MAX_PHOTO_BYTES,
                &[ImageFormat::Jpeg, ImageFormat::Png],
            );
            let (_, peak) = memory();
            println!(
                "photo check: {width}x{height} JPEG of {} bytes {} in {:.2?} ({:.2} s CPU), peak RSS +{} MB",
                photo.len(),
                match outcome {
                    Ok(_) => "accepted".to_owned(),
                    Err(e) => format!("refused ({})", e.description),
                },
                started.elapsed(),
                cpu_seconds() - cpu,
                peak.saturating_sub(before) / 1024
            );
        }
    }

    /// CPU time of this process so far, in seconds.
    fn cpu_seconds() -> f64 {
        let stat = std::fs::read_to_string("/proc/self/stat").unwrap();
        let after_name = &stat[stat.rfind(')').unwrap() + 2..];
        let fields: Vec<&str> = after_name.split_whitespace().collect();
        // utime and stime, fields 14 and 15 of the line, in clock ticks (100 per second).
        let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
        ticks as f64 / 100.0
    }
}
