//! Labels from the server: the PDF's Code 128 and QR codes read back by a real barcode reader
//! (pdftoppm draws the pages, zbarimg decodes them), the ZPL's commands, and who may print.

use crate::common;

use std::process::Command;

use crate::calls::*;
use common::site::{ADMIN_EMAIL, ADMIN_PASSWORD, Site};
use common::wire::demo_shipments;

async fn get(site: &Site, path: &str, cookie: &str) -> (u16, String, Vec<u8>) {
    let mut request = reqwest::Client::new().get(format!("{}{path}", site.base));
    if !cookie.is_empty() {
        request = request.header("cookie", cookie);
    }
    let reply = request.send().await.unwrap();
    let status = reply.status().as_u16();
    let content_type = reply
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    (status, content_type, reply.bytes().await.unwrap().to_vec())
}

/// What zbarimg reads on each page of `pdf`, drawn at 300 dpi.
fn barcodes_in(pdf: &[u8]) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("labels.pdf");
    std::fs::write(&file, pdf).unwrap();
    let drawn = Command::new("pdftoppm")
        .args(["-r", "300", "-png"])
        .arg(&file)
        .arg(dir.path().join("page"))
        .status()
        .expect("pdftoppm (apt-get install poppler-utils)");
    assert!(drawn.success());
    let mut pages: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "png"))
        .collect();
    pages.sort();
    let read = Command::new("zbarimg")
        .args(["-q"])
        .args(&pages)
        .output()
        .expect("zbarimg (apt-get install zbar-tools)");
    String::from_utf8_lossy(&read.stdout)
        .lines()
        .map(str::to_owned)
        .collect()
}

#[tokio::test]
async fn labels_come_as_pdf_a_barcode_reader_reads_and_as_zpl() {
    let site = all_in_one(60).await;
    let demo = demo_shipments(&site.store).await;
    let (first, second) = (&demo[0], &demo[1]);
    let admin = signed_in(&site, ADMIN_EMAIL, ADMIN_PASSWORD).await;
    let ids = format!("{},{}", first.id, second.id);

    for size in ["4x6", "a4"] {
        let (status, content_type, pdf) = get(
            &site,
            &format!("/exports/labels.pdf?ids={ids}&size={size}"),
            &admin,
        )
        .await;
        assert_eq!((status, content_type.as_str()), (200, "application/pdf"));
        let read = barcodes_in(&pdf);
        for shipment in [first, second] {
            let number = shipment.tracking_number.to_string();
            assert!(
                read.contains(&format!("CODE-128:{number}")),
                "{size}: {read:?}"
            );
            assert!(
                read.iter()
                    .any(|r| r.starts_with("QR-Code:http")
                        && r.ends_with(&format!("/track/{number}"))),
                "{size}: {read:?}"
            );
        }
    }

    let (status, content_type, zpl) = get(
        &site,
        &format!("/exports/labels.zpl?ids={}", first.id),
        &admin,
    )
    .await;
    assert_eq!(status, 200);
    assert!(content_type.starts_with("text/plain"));
    let zpl = String::from_utf8(zpl).unwrap();
    let number = first.tracking_number.to_string();
    assert!(
        zpl.starts_with("^XA") && zpl.trim_end().ends_with("^XZ"),
        "{zpl}"
    );
    assert!(
        zpl.contains(&format!("^BCN,160,N,N,N^FD{number}^FS")),
        "{zpl}"
    );
    assert!(zpl.contains(&format!("/track/{number}^FS")), "{zpl}");

    // Bounds and refusals, each with the reason.
    let many: Vec<String> = (0..101).map(|i| format!("id{i}")).collect();
    let (status, _, body) = get(
        &site,
        &format!("/exports/labels.pdf?ids={}", many.join(",")),
        &admin,
    )
    .await;
    assert_eq!(status, 400);
    assert!(String::from_utf8_lossy(&body).contains("at most 100"));
    let (status, _, _) = get(
        &site,
        "/exports/labels.pdf?ids=0190ffffffffffffffffffff",
        &admin,
    )
    .await;
    assert_eq!(status, 404);
    let (status, _, _) = get(
        &site,
        &format!("/exports/labels.pdf?ids={}&size=a3", first.id),
        &admin,
    )
    .await;
    assert_eq!(status, 400);
    let (status, _, _) = get(&site, &format!("/exports/labels.pdf?ids={}", first.id), "").await;
    assert_eq!(status, 401);
    // A customer's user prints through the portal's path only, and never another's shipment.
    let (status, _, _) = get(
        &site,
        &format!("/exports/portal/labels.pdf?ids={}", first.id),
        &admin,
    )
    .await;
    assert_eq!(status, 403, "staff print from the staff path");
}
