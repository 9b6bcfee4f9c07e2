//! CSV import over gRPC: the file in parts, the check, the run in the background, the report
//! of rejected rows, and a second run of the same file creating nothing.

use crate::common;

use common::service::{
    Running, caller, create, start, start_in, start_on_mongo, start_with, valid_input, violations,
};
use logistics_proto::v1 as pb;
use service_auth::TokenKey;
use tonic::Code;

const HEADER: &str = "tracking_number,status,shipper_name,shipper_address,shipper_phone,shipper_email,receiver_name,receiver_address,receiver_phone,receiver_email,origin,destination,current_location,carrier,type_of_shipment,shipment_mode,package_count,product,product_quantity,payment_mode,total_freight,weight_kg,expected_delivery_date,departure_time,pickup_date,pickup_time,comments,packages,created_at,external_reference";

/// A valid row; `shipper_email` and `comments` and `reference` vary.
fn row(shipper_email: &str, comments: &str, reference: &str) -> String {
    let mut w = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::new());
    w.write_record([
        "", "", "Ada Shipper", "1 Quay, Oslo", "+47 555 0101", shipper_email, "Bo Receiver",
        "2 Dock, Busan", "+82 555 0102", "bo@example.com", "Oslo, Norway", "Busan, Korea", "",
        "Maersk", "express", "sea_shipping", "1", "Salmon", "2", "bank_transfer", "120.50", "12.5",
        "2027-03-01", "08:30", "2027-02-01", "09:15", comments,
        r#"[{"quantity":1,"pieceType":"Box","description":"Fish","length":40,"width":30,"height":20,"weight":12.5}]"#,
        "", reference,
    ])
    .unwrap();
    String::from_utf8(w.into_inner().unwrap()).unwrap()
}

fn file(rows: &[String]) -> Vec<u8> {
    format!("{HEADER}\n{}", rows.concat()).into_bytes()
}

/// Sends the file in parts of `part` bytes; the import's id.
async fn upload(running: &mut Running, name: &str, bytes: &[u8], part: usize) -> String {
    let created = running
        .client
        .create_shipment_import(pb::CreateShipmentImportRequest {
            file_name: name.into(),
            size_bytes: bytes.len() as i64,
        })
        .await
        .unwrap()
        .into_inner();
    let mut offset = 0;
    for chunk in bytes.chunks(part) {
        let sent = running
            .client
            .append_shipment_import_data(pb::AppendShipmentImportDataRequest {
                import_id: created.id.clone(),
                offset,
                data: chunk.to_vec(),
            })
            .await
            .unwrap()
            .into_inner();
        offset += chunk.len() as i64;
        assert_eq!(sent.uploaded_bytes, offset);
    }
    created.id
}

async fn check(running: &mut Running, id: &str) -> Result<pb::ShipmentImport, tonic::Status> {
    running
        .client
        .start_shipment_import(pb::StartShipmentImportRequest {
            import_id: id.into(),
            validate_only: true,
        })
        .await
        .map(|r| r.into_inner())
}

/// Runs the import and follows it until it ends.
async fn run(running: &mut Running, id: &str) -> pb::ShipmentImport {
    let started = running
        .client
        .start_shipment_import(pb::StartShipmentImportRequest {
            import_id: id.into(),
            validate_only: false,
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(started.state(), pb::ShipmentImportState::Running);
    for _ in 0..1200 {
        let now = running
            .client
            .get_shipment_import(pb::GetShipmentImportRequest {
                import_id: id.into(),
            })
            .await
            .unwrap()
            .into_inner();
        if now.state() != pb::ShipmentImportState::Running {
            return now;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("the import did not end within a minute");
}

async fn report(running: &mut Running, id: &str) -> String {
    let mut stream = running
        .client
        .export_shipment_import_rejections(pb::ExportShipmentImportRejectionsRequest {
            import_id: id.into(),
        })
        .await
        .unwrap()
        .into_inner();
    let mut text = Vec::new();
    while let Some(chunk) = stream.message().await.unwrap() {
        text.extend(chunk.csv);
    }
    String::from_utf8(text).unwrap()
}

async fn all_shipments(running: &mut Running) -> Vec<pb::Shipment> {
    running
        .client
        .list_shipments(pb::ListShipmentsRequest {
            page_size: 100,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner()
        .shipments
}

#[tokio::test]
async fn a_file_is_checked_then_imported_and_a_second_run_creates_nothing() {
    let mut running = start().await;
    let mut rows: Vec<String> = (0..6)
        .map(|i| row(&format!("ada{i}@example.com"), "", ""))
        .collect();
    rows[2] = row("not-an-address", "", "");
    rows[4] = row(
        "ada4@example.com",
        r#"=HYPERLINK("http://evil.example","click")"#,
        "",
    );
    let bytes = file(&rows);
    // Parts of 300 bytes: a row spans parts.
    let id = upload(&mut running, "bookings.csv", &bytes, 300).await;
    let checked = check(&mut running, &id).await.unwrap();
    assert_eq!(checked.state(), pb::ShipmentImportState::Validated);
    assert_eq!(
        (
            checked.total_rows,
            checked.valid_rows,
            checked.rejected_count
        ),
        (6, 5, 1)
    );
    assert_eq!(checked.preview.len(), 6);
    let bad = &checked.rejected_preview[0];
    assert_eq!(bad.row, 4, "the header is line 1");
    assert_eq!(bad.errors[0].column, "shipper_email");
    assert!(
        all_shipments(&mut running).await.is_empty(),
        "a check writes nothing"
    );

    let done = run(&mut running, &id).await;
    assert_eq!(
        done.state(),
        pb::ShipmentImportState::Succeeded,
        "{}",
        done.error
    );
    assert_eq!(
        (done.created_count, done.skipped_count, done.rejected_count),
        (5, 0, 1)
    );
    assert_eq!(done.processed_rows, 6);
    let made = all_shipments(&mut running).await;
    assert_eq!(made.len(), 5);
    assert!(
        made.iter()
            .any(|s| s.comments == r#"=HYPERLINK("http://evil.example","click")"#),
        "a formula is stored as the text it is"
    );
    assert!(
        made.iter()
            .all(|s| s.status() == pb::ShipmentStatus::Pending
                && s.current_location == "Oslo, Norway")
    );

    let rejected = report(&mut running, &id).await;
    let mut reader = csv::Reader::from_reader(rejected.as_bytes());
    let header: Vec<String> = reader
        .headers()
        .unwrap()
        .iter()
        .map(str::to_owned)
        .collect();
    assert_eq!(&header[..3], ["row", "errors", "tracking_number"]);
    let lines: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(lines.len(), 1);
    assert_eq!(&lines[0][0], "4");
    assert!(
        lines[0][1].starts_with("shipper_email: "),
        "{}",
        &lines[0][1]
    );

    // The same file again: every row is known, nothing is created twice.
    let again = upload(&mut running, "bookings.csv", &bytes, 1024 * 1024).await;
    let second = run(&mut running, &again).await;
    assert_eq!(
        (
            second.created_count,
            second.skipped_count,
            second.rejected_count
        ),
        (0, 5, 1)
    );
    assert_eq!(all_shipments(&mut running).await.len(), 5);

    // Its report, fixed, imports as it is (the row and errors columns are ignored).
    let fixed = rejected.replace("not-an-address", "fixed@example.com");
    let fix = upload(
        &mut running,
        "rejected-fixed.csv",
        fixed.as_bytes(),
        1024 * 1024,
    )
    .await;
    let third = run(&mut running, &fix).await;
    assert_eq!(
        (third.created_count, third.rejected_count),
        (1, 0),
        "{:?}",
        third.rejected_preview
    );

    // Every creation and the import itself are in the audit log.
    let listed = running
        .client
        .list_shipment_imports(pb::ListShipmentImportsRequest::default())
        .await
        .unwrap()
        .into_inner();
    assert_eq!(listed.imports.len(), 3);
    assert_eq!(listed.imports[0].id, fix, "newest first");
}

#[tokio::test]
async fn external_references_are_unique_in_imports_and_creates() {
    let mut running = start().await;
    let bytes = file(&[
        row("a@example.com", "", "ERP-1"),
        row("b@example.com", "", "ERP-1"),
        row("c@example.com", "", "ERP-2"),
    ]);
    let id = upload(&mut running, "erp.csv", &bytes, 1 << 20).await;
    let done = run(&mut running, &id).await;
    // The second ERP-1 has another shipper: a conflict, not a row already imported.
    assert_eq!(
        (
            done.created_count,
            done.skipped_count,
            done.conflict_count,
            done.rejected_count
        ),
        (2, 0, 1, 1)
    );
    let input = pb::Shipment {
        external_reference: "ERP-2".into(),
        ..valid_input()
    };
    let refused = running
        .client
        .create_shipment(pb::CreateShipmentRequest {
            shipment: Some(input),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::AlreadyExists);
    assert_eq!(
        refused.message(),
        "A shipment with external reference ERP-2 exists"
    );
    let made = create(
        &mut running.client,
        pb::Shipment {
            external_reference: "ERP-3".into(),
            ..valid_input()
        },
    )
    .await;
    assert_eq!(made.external_reference, "ERP-3");
}

#[tokio::test]
async fn a_row_naming_a_customer_that_does_not_exist_is_rejected() {
    let mut running = start().await;
    let admin = running.key.mint(
        &common::service::caller("admin"),
        service_auth::CALL_TOKEN_LIFETIME,
    );
    let acme =
        logistics_proto::v1::customer_service_client::CustomerServiceClient::with_interceptor(
            running.channel.clone(),
            service_auth::Bearer::new(&admin),
        )
        .create_customer(pb::CreateCustomerRequest {
            customer: Some(pb::Customer {
                name: "Acme Imports".into(),
                ..Default::default()
            }),
        })
        .await
        .unwrap()
        .into_inner();
    let with_customer =
        |email: &str, customer: &str| format!("{},{customer}\n", row(email, "", "").trim_end());
    let bytes = format!(
        "{HEADER},customer_id\n{}{}{}",
        with_customer("a@example.com", &acme.id),
        with_customer("b@example.com", "0190ffffffffffffffffffff"),
        with_customer("c@example.com", ""),
    )
    .into_bytes();
    let id = upload(&mut running, "customers.csv", &bytes, 1 << 20).await;
    let done = run(&mut running, &id).await;
    assert_eq!((done.created_count, done.rejected_count), (2, 1));
    let shipments = all_shipments(&mut running).await;
    let of_acme: Vec<_> = shipments
        .iter()
        .filter(|s| s.customer_id == acme.id)
        .map(|s| s.shipper.as_ref().unwrap().email.as_str())
        .collect();
    assert_eq!(of_acme, ["a@example.com"]);
    let report = report(&mut running, &id).await;
    assert!(
        report.contains("customer_id: Customer not found"),
        "{report}"
    );
}

#[tokio::test]
async fn files_that_cannot_be_imported_are_refused_with_the_reason() {
    let mut running = start().await;
    let refused = running
        .client
        .create_shipment_import(pb::CreateShipmentImportRequest {
            file_name: "huge.csv".into(),
            size_bytes: 200_000_000,
        })
        .await
        .unwrap_err();
    assert_eq!(violations(&refused), ["size_bytes"]);
    assert!(
        refused
            .message()
            .contains("The file is larger than 100 MB.")
    );
    let refused = running
        .client
        .create_shipment_import(pb::CreateShipmentImportRequest {
            file_name: "empty.csv".into(),
            size_bytes: 0,
        })
        .await
        .unwrap_err();
    assert!(refused.message().contains("The file is empty."));

    let missing = HEADER.replace(",shipper_email", "").replace(",origin", "");
    let unknown = format!("{HEADER},colour");
    let not_utf8 = [HEADER.as_bytes(), b"\n\xff\xfe\n"].concat();
    let cases: [(&[u8], &str); 5] = [
        (b"   \n\n", "The file is empty."),
        (&not_utf8, "The file is not UTF-8 text (line 2)."),
        (
            missing.as_bytes(),
            "Missing columns: shipper_email, origin.",
        ),
        (unknown.as_bytes(), "Unknown columns: colour."),
        (HEADER.as_bytes(), "The file has a header but no rows."),
    ];
    for (bytes, message) in cases {
        let id = upload(&mut running, "bad.csv", bytes, 1 << 20).await;
        let refused = check(&mut running, &id).await.unwrap_err();
        assert_eq!(refused.code(), Code::InvalidArgument);
        assert_eq!(violations(&refused), ["file"]);
        assert!(
            refused.message().contains(message),
            "{} vs {message}",
            refused.message()
        );
        // Running it is refused just the same, and nothing is written.
        let refused = running
            .client
            .start_shipment_import(pb::StartShipmentImportRequest {
                import_id: id,
                validate_only: false,
            })
            .await
            .unwrap_err();
        assert_eq!(violations(&refused), ["file"]);
    }
    assert!(all_shipments(&mut running).await.is_empty());
}

#[tokio::test]
async fn parts_out_of_step_and_unfinished_files_are_refused() {
    let mut running = start().await;
    let bytes = file(&[row("a@example.com", "", "")]);
    let created = running
        .client
        .create_shipment_import(pb::CreateShipmentImportRequest {
            file_name: "a.csv".into(),
            size_bytes: bytes.len() as i64,
        })
        .await
        .unwrap()
        .into_inner();
    let append = |offset: i64, data: &[u8]| pb::AppendShipmentImportDataRequest {
        import_id: created.id.clone(),
        offset,
        data: data.to_vec(),
    };
    let refused = running
        .client
        .append_shipment_import_data(append(5, &bytes[..10]))
        .await
        .unwrap_err();
    assert_eq!(violations(&refused), ["offset"]);
    running
        .client
        .append_shipment_import_data(append(0, &bytes[..10]))
        .await
        .unwrap();
    // The same part again (a retry after a lost answer) is harmless.
    let same = running
        .client
        .append_shipment_import_data(append(0, &bytes[..10]))
        .await
        .unwrap();
    assert_eq!(same.into_inner().uploaded_bytes, 10);
    let unfinished = check(&mut running, &created.id).await.unwrap_err();
    assert_eq!(unfinished.code(), Code::FailedPrecondition);
    let too_much = [bytes[10..].to_vec(), b"extra".to_vec()].concat();
    let refused = running
        .client
        .append_shipment_import_data(append(10, &too_much))
        .await
        .unwrap_err();
    assert_eq!(violations(&refused), ["data"]);
    let missing = running
        .client
        .get_shipment_import(pb::GetShipmentImportRequest {
            import_id: "nosuchimport".into(),
        })
        .await
        .unwrap_err();
    assert_eq!(
        (missing.code(), missing.message()),
        (Code::NotFound, "Import not found")
    );
}

#[tokio::test]
async fn a_hundred_thousand_bad_rows_are_counted_previewed_and_reported() {
    let mut running = start().await;
    let mut bytes = format!("{HEADER}\n").into_bytes();
    for i in 0..100_000 {
        bytes.extend(format!("PSE{i:09},pending\n").as_bytes());
    }
    let id = upload(&mut running, "broken.csv", &bytes, 1 << 20).await;
    let checked = check(&mut running, &id).await.unwrap();
    assert_eq!((checked.total_rows, checked.valid_rows), (100_000, 0));
    assert_eq!(
        checked.rejected_preview.len(),
        20,
        "a preview, not the whole list"
    );
    assert_eq!(checked.rejected_preview[0].errors[0].column, "row");
    let done = run(&mut running, &id).await;
    assert_eq!((done.created_count, done.rejected_count), (0, 100_000));
    let rejected = report(&mut running, &id).await;
    assert_eq!(rejected.lines().count(), 100_001);
    assert!(all_shipments(&mut running).await.is_empty());
}

#[tokio::test]
async fn only_managers_and_admins_import() {
    let running = start().await;
    for role in ["agent", "user"] {
        let token = running
            .key
            .mint(&caller(role), service_auth::CALL_TOKEN_LIFETIME);
        let refused = running
            .client_as(&token)
            .create_shipment_import(pb::CreateShipmentImportRequest {
                file_name: "a.csv".into(),
                size_bytes: 10,
            })
            .await
            .unwrap_err();
        assert_eq!(refused.code(), Code::PermissionDenied, "{role}");
    }
    let manager = running
        .key
        .mint(&caller("manager"), service_auth::CALL_TOKEN_LIFETIME);
    running
        .client_as(&manager)
        .list_shipment_imports(pb::ListShipmentImportsRequest::default())
        .await
        .unwrap();
}

/// A row with a tracking number of its own.
fn numbered(number: &str, comments: &str) -> String {
    format!("{number}{}", row("nina@example.com", comments, ""))
}

#[tokio::test]
async fn a_row_whose_reference_or_number_exists_with_other_data_is_a_conflict() {
    let mut running = start().await;
    let first = file(&[
        row("a@example.com", "", "ERP-10"),
        row("b@example.com", "", "ERP-11"),
        numbered("PSE482917365", "fragile"),
    ]);
    let id = upload(&mut running, "first.csv", &first, 1 << 20).await;
    assert_eq!(run(&mut running, &id).await.created_count, 3);

    let second = file(&[
        row("a@example.com", "", "ERP-10"),
        row("b.other@example.com", "", "ERP-11"),
        numbered("PSE482917365", "not fragile"),
        numbered("PSE482917365", "fragile"),
        row("c@example.com", "", "ERP-12"),
    ]);
    let id = upload(&mut running, "second.csv", &second, 1 << 20).await;
    let done = run(&mut running, &id).await;
    assert_eq!(
        (
            done.created_count,
            done.skipped_count,
            done.conflict_count,
            done.rejected_count,
            done.processed_rows
        ),
        (1, 2, 2, 2, 5)
    );
    let rejected = report(&mut running, &id).await;
    let lines: Vec<&str> = rejected.lines().collect();
    assert_eq!(lines.len(), 3, "{rejected}");
    assert!(
        lines[1].starts_with(
            "3,external_reference: conflict: The reference ERP-11 is already shipment PSE"
        ) && lines[1].contains("with other data in shipper_email; nothing was changed"),
        "{}",
        lines[1]
    );
    assert!(
        lines[2].starts_with("4,tracking_number: conflict: The tracking number is already shipment PSE482917365 with other data in comments;"),
        "{}",
        lines[2]
    );
    // Nothing was changed.
    let shipments = all_shipments(&mut running).await;
    assert_eq!(shipments.len(), 4);
    let kept = shipments
        .iter()
        .find(|s| s.external_reference == "ERP-11")
        .unwrap();
    assert_eq!(kept.shipper.as_ref().unwrap().email, "b@example.com");
}

/// Checks `bytes` as an import file: the refusal's message.
async fn refusal(running: &mut Running, bytes: &[u8]) -> String {
    let id = upload(running, "hostile.csv", bytes, 1 << 20).await;
    let refused = check(running, &id).await.unwrap_err();
    assert_eq!(refused.code(), Code::InvalidArgument);
    assert_eq!(violations(&refused), ["file"]);
    refused.message().to_owned()
}

#[tokio::test]
async fn hostile_shapes_are_refused_by_the_bound_they_break() {
    let mut running = start().await;
    let valid = row("ada@example.com", "", "");
    let cases: Vec<(Vec<u8>, String)> = vec![
        (
            vec![b','; 3_000_000],
            "Line 1 has more than 64 cells".into(),
        ),
        (
            [HEADER.as_bytes(), b"\n", &vec![b','; 3_000_000]].concat(),
            "Line 2 has more than 64 cells".into(),
        ),
        (
            vec![b'x'; 3_000_000],
            "Line 1 is longer than 524288 bytes".into(),
        ),
        (
            [HEADER.as_bytes(), b"\n\"", &b"a,b\n".repeat(500_000)].concat(),
            "Line 2 is longer than 524288 bytes".into(),
        ),
        (
            file(&[valid.replace("ada@example.com", &"a".repeat(300_000))]),
            "Line 2, shipper_email: a cell is longer than 262144 bytes".into(),
        ),
        (
            file(&[valid.clone(), valid.replace("Salmon", "Sal\0mon")]),
            "Line 3 holds a NUL byte".into(),
        ),
        (
            "\u{feff}t\0r\0a\0c\0k\0"
                .encode_utf16()
                .flat_map(u16::to_le_bytes)
                .collect(),
            "Line 1 holds a NUL byte".into(),
        ),
    ];
    for (bytes, message) in cases {
        let refused = refusal(&mut running, &bytes).await;
        assert!(refused.contains(&message), "{refused} vs {message}");
    }
    assert!(all_shipments(&mut running).await.is_empty());
}

#[tokio::test]
async fn bom_cr_only_and_semicolon_files_are_read() {
    let mut running = start().await;
    let comma = file(&[
        row("ada@example.com", "", "ERP-20"),
        row("bo@example.com", "", "ERP-21"),
    ]);
    let text = String::from_utf8(comma.clone()).unwrap();
    let mut semicolon = csv::WriterBuilder::new()
        .delimiter(b';')
        .from_writer(Vec::new());
    for record in csv::Reader::from_reader(comma.as_slice()).records() {
        let record = record.unwrap();
        let mut fields: Vec<String> = record.iter().map(str::to_owned).collect();
        let last = fields.len() - 1;
        fields[last] = fields[last].replace("ERP-2", "ERP-3");
        semicolon.write_record(&fields).unwrap();
    }
    let semicolon = [
        HEADER.replace(',', ";").as_bytes(),
        b"\n",
        &semicolon.into_inner().unwrap(),
    ]
    .concat();
    let bom_cr = [
        &b"\xEF\xBB\xBF"[..],
        text.replace("ERP-2", "ERP-4")
            .replace('\n', "\r")
            .as_bytes(),
    ]
    .concat();
    for bytes in [semicolon, bom_cr] {
        let id = upload(&mut running, "other.csv", &bytes, 7).await;
        let checked = check(&mut running, &id).await.unwrap();
        assert_eq!((checked.total_rows, checked.valid_rows), (2, 2));
        assert_eq!(checked.preview[1].row, 3);
        assert_eq!(run(&mut running, &id).await.created_count, 2);
    }
    assert_eq!(all_shipments(&mut running).await.len(), 4);
}

fn embedded(dir: &tempfile::TempDir) -> service_common::StoreConfig {
    service_common::StoreConfig::Embedded {
        data_dir: dir.path().to_path_buf(),
    }
}

async fn state_of(running: &mut Running, id: &str) -> pb::ShipmentImport {
    running
        .client
        .get_shipment_import(pb::GetShipmentImportRequest {
            import_id: id.into(),
        })
        .await
        .unwrap()
        .into_inner()
}

#[tokio::test]
async fn uploads_not_run_in_time_are_deleted_at_start_and_by_the_sweeper() {
    use shipments::import::ImportRecord;
    let dir = tempfile::tempdir().unwrap();
    let config = embedded(&dir);
    let store = shipments::open_store(&config).await.unwrap();
    let blobs = shipments::blobs::open(&config).await.unwrap();
    let now = chrono::Utc::now();
    // What an earlier run left: an upload begun 25 hours ago and one begun an hour ago.
    for (id, age) in [("oldupload", 25), ("newupload", 1)] {
        let mut record = ImportRecord::new(
            id.into(),
            "f.csv".into(),
            3,
            "someone@example.com".into(),
            now - chrono::TimeDelta::hours(age),
        );
        (record.uploaded_bytes, record.parts) = (3, 1);
        store.save_import(&record).await.unwrap();
        blobs
            .put(&format!("imports/{id}/part-000000"), b"a,b")
            .await
            .unwrap();
    }
    let part = |id: &str| format!("imports/{id}/part-000000");

    let mut running = start_in(
        dir,
        TokenKey::generate(),
        service_common::settings::defaults(),
    )
    .await;
    let old = state_of(&mut running, "oldupload").await;
    assert_eq!(old.state(), pb::ShipmentImportState::Failed);
    let expired =
        "The file was not run within 24 hours of its upload, so it was deleted; upload it again.";
    assert_eq!(old.error, expired);
    assert_eq!(blobs.get(&part("oldupload")).await.unwrap(), None);
    let refused = check(&mut running, "oldupload").await.unwrap_err();
    assert_eq!(
        (refused.code(), refused.message()),
        (Code::FailedPrecondition, expired)
    );
    let new = state_of(&mut running, "newupload").await;
    assert_eq!(new.state(), pb::ShipmentImportState::Uploading);
    assert!(blobs.get(&part("newupload")).await.unwrap().is_some());

    // A day later (the sweeper's clock moved on), the newer one goes too, once.
    let service = shipments::ShipmentsService::new(
        store,
        blobs.clone(),
        running.key.clone(),
        std::time::Duration::ZERO,
        String::new(),
        service_common::settings::defaults::<shipments::Settings>().policy(),
    );
    let later = now + chrono::TimeDelta::hours(24);
    assert_eq!(service.sweep_pending_imports(later).await.unwrap(), 1);
    assert_eq!(blobs.get(&part("newupload")).await.unwrap(), None);
    assert_eq!(service.sweep_pending_imports(later).await.unwrap(), 0);
}

#[tokio::test]
async fn one_persons_uploads_not_yet_run_have_a_quota() {
    let mut running = start_with(shipments::Settings {
        import_pending_quota_mb: 1,
        ..service_common::settings::defaults()
    })
    .await;
    let small = file(&[row("ada@example.com", "", "")]);
    let ready = upload(&mut running, "small.csv", &small, 1 << 20).await;
    let reserve = |client: &mut common::service::Client, size: i64| {
        let mut client = client.clone();
        async move {
            client
                .create_shipment_import(pb::CreateShipmentImportRequest {
                    file_name: "big.csv".into(),
                    size_bytes: size,
                })
                .await
        }
    };
    let rest = 1_000_000 - small.len() as i64;
    reserve(&mut running.client, rest).await.unwrap();
    let refused = reserve(&mut running.client, 1).await.unwrap_err();
    assert_eq!(refused.code(), Code::FailedPrecondition);
    assert_eq!(
        refused.message(),
        "Your import files not yet run take 1.0 MB; with this one (0.0 MB) they would pass the \
         limit of 1.0 MB per person. Run them first; a file not run is deleted 24 hours after \
         its upload."
    );
    // Someone else's uploads count apart.
    let other = running.key.mint(
        &service_auth::Caller::with_role("u2", "other@example.com", "admin".parse().unwrap()),
        service_auth::CALL_TOKEN_LIFETIME,
    );
    reserve(&mut running.client_as(&other), 500_000)
        .await
        .unwrap();
    // A file run no longer counts.
    assert_eq!(run(&mut running, &ready).await.created_count, 1);
    reserve(&mut running.client, small.len() as i64)
        .await
        .unwrap();
    reserve(&mut running.client, 1).await.unwrap_err();
}

/// Every shipment as the export writes it.
async fn export(running: &mut Running) -> Vec<u8> {
    let mut stream = running
        .client
        .export_shipments(pb::ExportShipmentsRequest::default())
        .await
        .unwrap()
        .into_inner();
    let mut bytes = Vec::new();
    while let Some(chunk) = stream.message().await.unwrap() {
        bytes.extend(chunk.csv);
    }
    bytes
}

/// The cells of an export but those a store gives anew (`id`, `updated_at`), by reference.
fn comparable(bytes: &[u8]) -> Vec<Vec<String>> {
    let mut rows: Vec<Vec<String>> = csv::Reader::from_reader(bytes)
        .records()
        .map(|r| {
            let r = r.unwrap();
            shipments::export::COLUMNS
                .iter()
                .zip(r.iter())
                .filter(|(c, _)| !matches!(**c, "id" | "updated_at"))
                .map(|(_, cell)| cell.to_owned())
                .collect()
        })
        .collect();
    rows.sort();
    rows
}

#[tokio::test]
async fn an_export_imports_back_exactly_and_opens_in_a_spreadsheet_as_text() {
    let mut first = start().await;
    let tricky = pb::Shipment {
        shipper: Some(pb::Party {
            name: "=HYPERLINK(\"http://evil.example\",\"x\")".into(),
            address: "Flat 2\nRua São João, 12; \"Bloco\" B".into(),
            phone: "+44 20 7946 0958".into(),
            email: "ines@example.com".into(),
        }),
        receiver: Some(pb::Party {
            name: "'=already quoted".into(),
            address: "ul. Piotrkowska 5, Łódź".into(),
            phone: "+1-555-0100".into(),
            email: "jan@example.pl".into(),
        }),
        origin: "São Paulo, Brasil".into(),
        destination: "Łódź, Polska".into(),
        carrier: "''Maersk".into(),
        product: "-5 kg salt".into(),
        comments: "@SUM(A1), then ; and \"quotes\" – ✓".into(),
        external_reference: "ERP-RT-1".into(),
        ..valid_input()
    };
    let plain = pb::Shipment {
        external_reference: "ERP-RT-2".into(),
        ..valid_input()
    };
    let made = create(&mut first.client, tricky.clone()).await;
    create(&mut first.client, plain).await;
    let exported = export(&mut first).await;
    assert!(exported.starts_with(b"\xEF\xBB\xBF"), "a byte-order mark");

    // A spreadsheet sees the header, every accent, and formulas as text.
    let cells = common::spreadsheet_view(&exported);
    assert_eq!(cells[0], shipments::export::COLUMNS);
    let row = cells.iter().find(|r| r[0] == made.tracking_number).unwrap();
    let cell = |column: &str| {
        let i = cells[0].iter().position(|c| c == column).unwrap();
        row[i].as_str()
    };
    assert_eq!(
        cell("shipper_name"),
        "'=HYPERLINK(\"http://evil.example\",\"x\")"
    );
    assert_eq!(cell("shipper_phone"), "'+44 20 7946 0958");
    assert_eq!(cell("receiver_name"), "''=already quoted");
    assert_eq!(cell("carrier"), "'''Maersk");
    assert_eq!(
        cell("shipper_address"),
        "Flat 2\nRua São João, 12; \"Bloco\" B"
    );
    assert_eq!(cell("destination"), "Łódź, Polska");

    // Imported into an empty site, the file gives the same shipments back.
    let mut second = start().await;
    let id = upload(&mut second, "export.csv", &exported, 1 << 20).await;
    let done = run(&mut second, &id).await;
    assert_eq!((done.created_count, done.rejected_count), (2, 0));
    let back = all_shipments(&mut second).await;
    let copy = back
        .iter()
        .find(|s| s.external_reference == "ERP-RT-1")
        .unwrap();
    assert_eq!(copy.tracking_number, made.tracking_number);
    assert_eq!(copy.shipper, tricky.shipper);
    assert_eq!(copy.receiver, tricky.receiver);
    assert_eq!(
        (&copy.carrier, &copy.product, &copy.comments),
        (&tricky.carrier, &tricky.product, &tricky.comments)
    );
    assert_eq!(
        comparable(&export(&mut second).await),
        comparable(&exported)
    );
}

#[tokio::test]
async fn a_header_of_unknown_columns_says_which_separator_was_read() {
    let mut running = start().await;
    let message = refusal(&mut running, b"colour;size\nred;L\n").await;
    assert!(
        message.contains(
            "Unknown columns: colour, size. The template lists the columns. This file's cells \
             were read as semicolon-separated."
        ),
        "{message}"
    );
}

#[tokio::test]
async fn an_imported_rows_count_and_weight_follow_its_packages() {
    let mut running = start().await;
    // One box of 12.5 kg, typed as 7 packages of 100 kg.
    let contradictory = row("ada@example.com", "", "")
        .replace(",sea_shipping,1,Salmon,", ",sea_shipping,7,Salmon,")
        .replace(",120.50,12.5,", ",120.50,100,");
    assert_ne!(contradictory, row("ada@example.com", "", ""));
    let id = upload(
        &mut running,
        "bookings.csv",
        &file(&[contradictory]),
        1024 * 1024,
    )
    .await;
    let done = run(&mut running, &id).await;
    assert_eq!(done.created_count, 1, "{:?}", done.rejected_preview);
    let made = all_shipments(&mut running).await;
    assert_eq!((made[0].package_count, made[0].weight_kg), (1, 12.5));
}

async fn imports_page(
    running: &mut Running,
    page_token: &str,
) -> Result<pb::ListShipmentImportsResponse, tonic::Status> {
    running
        .client
        .list_shipment_imports(pb::ListShipmentImportsRequest {
            page_size: 2,
            page_token: page_token.into(),
        })
        .await
        .map(tonic::Response::into_inner)
}

/// A page token from one page gives the next; one no page handed out is refused by name.
async fn the_imports_list_pages_with_opaque_tokens(mut running: Running) {
    let mut ids = Vec::new();
    for i in 0..3 {
        let bytes = file(&[row(&format!("page{i}@example.com"), "", "")]);
        ids.push(upload(&mut running, &format!("page{i}.csv"), &bytes, 1 << 20).await);
    }
    ids.reverse();
    let first = imports_page(&mut running, "").await.unwrap();
    let listed = |page: &pb::ListShipmentImportsResponse| -> Vec<String> {
        page.imports.iter().map(|i| i.id.clone()).collect()
    };
    assert_eq!(listed(&first), ids[..2], "newest first");
    assert!(!first.next_page_token.is_empty());
    assert!(
        !first.next_page_token.contains(&ids[1]),
        "the token is opaque"
    );
    let second = imports_page(&mut running, &first.next_page_token)
        .await
        .unwrap();
    assert_eq!(listed(&second), ids[2..]);
    assert_eq!(second.next_page_token, "");

    let encode = service_common::paging::encode;
    for bad in [
        "!!!".to_owned(),
        format!("{}!", first.next_page_token),
        ids[1].clone(),
        encode("../etc|1"),
    ] {
        let refused = imports_page(&mut running, &bad).await.unwrap_err();
        assert_eq!(refused.code(), Code::InvalidArgument, "{bad}");
        assert_eq!(violations(&refused), ["page_token"], "{bad}");
    }
    // A well-formed token of an import no longer there: nothing past it, not page 1 again.
    let gone = imports_page(&mut running, &encode("0000gone"))
        .await
        .unwrap();
    assert_eq!(listed(&gone), Vec::<String>::new());
}

#[tokio::test]
async fn sqlite_imports_list_pages_with_opaque_tokens() {
    the_imports_list_pages_with_opaque_tokens(start().await).await;
}

#[tokio::test]
async fn mongo_imports_list_pages_with_opaque_tokens() {
    if let Some(running) = start_on_mongo().await {
        the_imports_list_pages_with_opaque_tokens(running).await;
    }
}
