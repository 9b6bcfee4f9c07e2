//! `bench-import --url URL --email E --password P --rows N`: signs in at a running gateway and
//! imports N generated shipments from a CSV file as the Import page does (1 MiB parts, a check,
//! a run followed until it ends), then prints the rows and the time of each step.
//! With `--check FILE` it uploads that file and only checks it, printing the answer (for the
//! memory a hostile file costs).

mod bench_client;

use std::time::{Duration, Instant};

use bench_client::Browser;
use logistics_proto::v1 as pb;

const SERVICE: &str = "/logistics.v1.ShipmentService/";
const HEADER: &str = "tracking_number,status,shipper_name,shipper_address,shipper_phone,shipper_email,receiver_name,receiver_address,receiver_phone,receiver_email,origin,destination,current_location,carrier,type_of_shipment,shipment_mode,package_count,product,product_quantity,payment_mode,total_freight,weight_kg,expected_delivery_date,departure_time,pickup_date,pickup_time,comments,packages,created_at,external_reference";

#[derive(clap::Parser)]
#[command(about = "Times a CSV import through a running gateway")]
struct Cli {
    #[arg(long)]
    url: String,
    #[arg(long)]
    email: String,
    #[arg(long)]
    password: String,
    #[arg(long, default_value_t = 100_000)]
    rows: usize,
    #[arg(long)]
    check: Option<std::path::PathBuf>,
}

/// N bookings, each with its own reference, so the same file runs once only.
fn file(rows: usize) -> Vec<u8> {
    let run = std::process::id();
    let mut out = csv::Writer::from_writer(Vec::with_capacity(rows * 450));
    out.write_record(HEADER.split(',')).expect("memory");
    for i in 0..rows {
        out.write_record([
            "",
            "",
            &format!("Shipper {i}"),
            "14 Marina Road, Lagos, Nigeria",
            "+234 803 555 0142",
            &format!("shipper{i}@example.com"),
            &format!("Receiver {i}"),
            "Wilhelminakade 88, Rotterdam, Netherlands",
            "+31 10 555 0199",
            &format!("receiver{i}@example.com"),
            "Lagos, Nigeria",
            "Rotterdam, Netherlands",
            "",
            "Maersk",
            "express",
            "sea_shipping",
            "2",
            "Cocoa",
            "4",
            "bank_transfer",
            "1250.50",
            "40",
            "2027-03-01",
            "08:30",
            "2027-02-01",
            "09:15",
            "Keep dry",
            r#"[{"quantity":2,"pieceType":"Box","description":"Beans","length":50,"width":40,"height":30,"weight":12.5}]"#,
            "",
            &format!("BENCH-{run}-{i}"),
        ])
        .expect("memory");
    }
    out.into_inner().expect("memory")
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = <Cli as clap::Parser>::parse();
    let browser = Browser::sign_in(&cli.url, &cli.email, &cli.password).await?;
    let bytes = match &cli.check {
        Some(path) => std::fs::read(path)?,
        None => file(cli.rows),
    };
    let started = Instant::now();
    let created: pb::ShipmentImport = browser
        .call(
            &format!("{SERVICE}CreateShipmentImport"),
            &pb::CreateShipmentImportRequest {
                file_name: "bench.csv".into(),
                size_bytes: bytes.len() as i64,
            },
        )
        .await?;
    let mut offset = 0;
    for part in bytes.chunks(1024 * 1024) {
        let _: pb::ShipmentImport = browser
            .call(
                &format!("{SERVICE}AppendShipmentImportData"),
                &pb::AppendShipmentImportDataRequest {
                    import_id: created.id.clone(),
                    offset,
                    data: part.to_vec(),
                },
            )
            .await?;
        offset += part.len() as i64;
    }
    let uploaded = started.elapsed();
    let start = |validate_only| pb::StartShipmentImportRequest {
        import_id: created.id.clone(),
        validate_only,
    };
    if cli.check.is_some() {
        let answer: anyhow::Result<pb::ShipmentImport> = browser
            .call(&format!("{SERVICE}StartShipmentImport"), &start(true))
            .await;
        match answer {
            Ok(checked) => println!(
                "checked: {} rows, {} valid",
                checked.total_rows, checked.valid_rows
            ),
            Err(e) => println!(
                "refused: {}",
                format!("{e:#}").chars().take(160).collect::<String>()
            ),
        }
        return Ok(());
    }
    let checked: pb::ShipmentImport = browser
        .call(&format!("{SERVICE}StartShipmentImport"), &start(true))
        .await?;
    anyhow::ensure!(
        checked.valid_rows as usize == cli.rows,
        "rows refused: {:?}",
        checked.rejected_preview
    );
    let validated = started.elapsed();
    let _: pb::ShipmentImport = browser
        .call(&format!("{SERVICE}StartShipmentImport"), &start(false))
        .await?;
    let done = loop {
        tokio::time::sleep(Duration::from_millis(200)).await;
        let now: pb::ShipmentImport = browser
            .call(
                &format!("{SERVICE}GetShipmentImport"),
                &pb::GetShipmentImportRequest {
                    import_id: created.id.clone(),
                },
            )
            .await?;
        if now.state() != pb::ShipmentImportState::Running {
            break now;
        }
    };
    let total = started.elapsed();
    anyhow::ensure!(
        done.state() == pb::ShipmentImportState::Succeeded
            && done.created_count as usize == cli.rows,
        "import ended {:?}: {} created, {}",
        done.state(),
        done.created_count,
        done.error
    );
    println!(
        "CSV import: {} rows, {:.0} MB in {:.1} s (upload {:.1} s, check {:.1} s, run {:.1} s; {:.0} rows/s)",
        cli.rows,
        bytes.len() as f64 / 1e6,
        total.as_secs_f64(),
        uploaded.as_secs_f64(),
        (validated - uploaded).as_secs_f64(),
        (total - validated).as_secs_f64(),
        cli.rows as f64 / total.as_secs_f64()
    );
    Ok(())
}
