//! Shipping labels from the server, for printers and systems without a browser:
//! `GET /exports/labels.pdf?ids=…&size=4x6|a4` and `GET /exports/labels.zpl?ids=…` (staff with
//! labels.print), and the same under `/exports/portal/` for a customer's own shipments. Each
//! label carries what the browser's does: the tracking number as Code 128 and the tracking
//! link as a QR code, the route, both parties, the packages and the carrier.

use axum::extract::{ConnectInfo, Query, State};
use axum::response::{IntoResponse, Response};
use http::{HeaderMap, StatusCode, header};
use logistics_proto::v1::{
    self as pb, customer_portal_service_client::CustomerPortalServiceClient,
    shipment_service_client::ShipmentServiceClient,
};
use pdf_writer::{Content, Finish, Name, Pdf, Rect, Ref, Str};
use service_auth::Permission;

use crate::export::{Exporter, Exports};

pub const PDF_PATH: &str = "/exports/labels.pdf";
pub const ZPL_PATH: &str = "/exports/labels.zpl";
pub const PORTAL_PDF_PATH: &str = "/exports/portal/labels.pdf";
pub const PORTAL_ZPL_PATH: &str = "/exports/portal/labels.zpl";

/// Most shipments one call prints (one GetShipment each), as the browser's print page.
pub const MAX_LABELS: usize = 100;

/// Points per inch, and per millimetre.
const PT: f32 = 72.0;
const MM: f32 = 72.0 / 25.4;

#[derive(serde::Deserialize, Default)]
#[serde(default)]
pub struct LabelQuery {
    /// Shipment ids, comma-separated.
    ids: String,
    /// `4x6` (the default) or `a4`.
    size: String,
}

#[derive(Clone, Copy, PartialEq)]
enum Format {
    Pdf { a4: bool },
    Zpl,
}

fn plain(status: StatusCode, message: &str) -> Response {
    (
        status,
        [(header::CACHE_CONTROL, "no-store")],
        message.to_owned(),
    )
        .into_response()
}

/// The ids of `raw`: trimmed, empties and repeats dropped, in order.
fn ids(raw: &str) -> Result<Vec<String>, String> {
    let mut ids: Vec<String> = Vec::new();
    for id in raw.split(',').map(str::trim).filter(|id| !id.is_empty()) {
        if id.len() > 64 {
            return Err("ids: an id is at most 64 characters".into());
        }
        if !ids.iter().any(|known| known == id) {
            ids.push(id.to_owned());
        }
    }
    match ids.len() {
        0 => Err("ids: name at least one shipment (ids=<id>,<id>)".into()),
        n if n > MAX_LABELS => Err(format!(
            "ids: at most {MAX_LABELS} shipments at once, not {n}"
        )),
        _ => Ok(ids),
    }
}

macro_rules! handler {
    ($name:ident, $printer:expr, $format:expr) => {
        pub async fn $name(
            State(exports): State<Exports>,
            ConnectInfo(peer): ConnectInfo<std::net::SocketAddr>,
            headers: HeaderMap,
            Query(query): Query<LabelQuery>,
        ) -> Response {
            let format = match $format {
                Format::Zpl => Format::Zpl,
                Format::Pdf { .. } => Format::Pdf {
                    a4: query.size.trim().eq_ignore_ascii_case("a4"),
                },
            };
            labels(&exports, peer, &headers, &query, $printer, format).await
        }
    };
}

handler!(staff_pdf, Exporter::Staff, Format::Pdf { a4: false });
handler!(staff_zpl, Exporter::Staff, Format::Zpl);
handler!(portal_pdf, Exporter::Portal, Format::Pdf { a4: false });
handler!(portal_zpl, Exporter::Portal, Format::Zpl);

async fn labels(
    exports: &Exports,
    peer: std::net::SocketAddr,
    headers: &HeaderMap,
    query: &LabelQuery,
    printer: Exporter,
    format: Format,
) -> Response {
    let (_, metadata) = match exports
        .caller(peer, headers, printer, Permission::LabelsPrint)
        .await
    {
        Ok(caller) => caller,
        Err(refusal) => return refusal,
    };
    let size = query.size.trim();
    if !(size.is_empty() || size.eq_ignore_ascii_case("4x6") || size.eq_ignore_ascii_case("a4")) {
        return plain(StatusCode::BAD_REQUEST, "size: must be 4x6 or a4");
    }
    let ids = match ids(&query.ids) {
        Ok(ids) => ids,
        Err(message) => return plain(StatusCode::BAD_REQUEST, &message),
    };
    let mut shipments = Vec::with_capacity(ids.len());
    for id in ids {
        let request = tonic::Request::from_parts(
            metadata.clone(),
            http::Extensions::new(),
            pb::GetShipmentRequest { id: id.clone() },
        );
        let reply = match printer {
            Exporter::Staff => {
                ShipmentServiceClient::new(exports.shipments.clone())
                    .get_shipment(request)
                    .await
            }
            Exporter::Portal => {
                CustomerPortalServiceClient::new(exports.shipments.clone())
                    .get_shipment(request)
                    .await
            }
        };
        match reply {
            Ok(shipment) => shipments.push(shipment.into_inner()),
            Err(status) if status.code() == tonic::Code::NotFound => {
                return plain(StatusCode::NOT_FOUND, &format!("Shipment not found: {id}"));
            }
            Err(status) => return plain(StatusCode::SERVICE_UNAVAILABLE, status.message()),
        }
    }
    let site = exports.public_url.trim_end_matches('/');
    let day = chrono::Utc::now().format("%Y-%m-%d");
    let (body, content_type, filename) = match format {
        Format::Zpl => (
            shipments
                .iter()
                .map(|s| zpl(s, &exports.company_name, site))
                .collect::<String>()
                .into_bytes(),
            "text/plain; charset=utf-8",
            format!("labels-{day}.zpl"),
        ),
        Format::Pdf { a4 } => (
            pdf(&shipments, &exports.company_name, site, a4),
            "application/pdf",
            format!("labels-{day}.pdf"),
        ),
    };
    (
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, content_type.to_owned()),
            (header::CACHE_CONTROL, "no-store".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{filename}\""),
            ),
        ],
        body,
    )
        .into_response()
}

/// The tracking page of a number: what the QR code holds, as on the browser's label.
pub fn tracking_url(site: &str, number: &str) -> String {
    format!("{site}/track/{number}")
}

fn route(s: &pb::Shipment) -> String {
    format!("{} -> {}", s.origin, s.destination)
}

fn pieces(s: &pb::Shipment) -> String {
    let count: i64 = s.packages.iter().map(|p| i64::from(p.quantity)).sum();
    format!("{count} piece(s), {:.1} kg", s.total_actual_weight_kg)
}

/// ZPL's field data: its own control characters taken out (`^` and `~` start commands).
fn zpl_text(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c == '^' || c == '~' || c.is_control() {
                ' '
            } else {
                c
            }
        })
        .take(60)
        .collect()
}

/// One 4 × 6 in label at 203 dpi (812 × 1218 dots), in UTF-8 (`^CI28`).
pub fn zpl(s: &pb::Shipment, company: &str, site: &str) -> String {
    let party = |p: &Option<pb::Party>| {
        let p = p.clone().unwrap_or_default();
        (zpl_text(&p.name), zpl_text(&p.address))
    };
    let (from_name, from_address) = party(&s.shipper);
    let (to_name, to_address) = party(&s.receiver);
    format!(
        "^XA^CI28^PW812^LL1218\n\
         ^FO40,30^A0N,40,40^FD{company}^FS\n\
         ^FO40,90^A0N,32,32^FD{route}^FS\n\
         ^FO40,150^A0N,24,24^FDFROM^FS^FO40,180^A0N,30,30^FD{from_name}^FS^FO40,215^A0N,26,26^FD{from_address}^FS\n\
         ^FO40,280^A0N,24,24^FDTO^FS^FO40,310^A0N,40,40^FD{to_name}^FS^FO40,355^A0N,30,30^FD{to_address}^FS\n\
         ^FO40,430^A0N,28,28^FD{pieces}^FS\n\
         ^FO40,500^BY3^BCN,160,N,N,N^FD{number}^FS\n\
         ^FO40,680^A0N,44,44^FD{number}^FS\n\
         ^FO40,760^BQN,2,6^FDLA,{url}^FS\n\
         ^FO360,800^A0N,26,26^FDTrack this shipment^FS^FO360,840^A0N,22,22^FD{url}^FS\n\
         ^FO360,890^A0N,24,24^FDCarrier: {carrier}^FS\n\
         ^XZ\n",
        company = zpl_text(company),
        route = zpl_text(&route(s)),
        pieces = zpl_text(&pieces(s)),
        number = zpl_text(&s.tracking_number),
        url = zpl_text(&tracking_url(site, &s.tracking_number)),
        carrier = zpl_text(&s.carrier),
    )
}

/// Text a standard PDF font can show (WinAnsi): what it cannot, as `?`.
fn pdf_text(text: &str) -> Vec<u8> {
    text.chars()
        .take(70)
        .map(|c| match c {
            ' '..='~' => c as u8,
            '\u{a0}'..='\u{ff}' => c as u32 as u8,
            _ => b'?',
        })
        .collect()
}

/// The labels as one PDF: a 4 × 6 in page each, or each in the middle of an A4 page.
pub fn pdf(shipments: &[pb::Shipment], company: &str, site: &str, a4: bool) -> Vec<u8> {
    let (page_w, page_h) = if a4 {
        (210.0 * MM, 297.0 * MM)
    } else {
        (4.0 * PT, 6.0 * PT)
    };
    // The label's lower left corner on its page.
    let (x0, y0) = ((page_w - 4.0 * PT) / 2.0, (page_h - 6.0 * PT) / 2.0);
    let mut pdf = Pdf::new();
    let catalog = Ref::new(1);
    let tree = Ref::new(2);
    let regular = Ref::new(3);
    let bold = Ref::new(4);
    let page_ids: Vec<Ref> = (0..shipments.len())
        .map(|i| Ref::new(5 + 2 * i as i32))
        .collect();
    pdf.catalog(catalog).pages(tree);
    pdf.pages(tree)
        .kids(page_ids.iter().copied())
        .count(shipments.len() as i32);
    pdf.type1_font(regular)
        .base_font(Name(b"Helvetica"))
        .encoding_predefined(Name(b"WinAnsiEncoding"));
    pdf.type1_font(bold)
        .base_font(Name(b"Helvetica-Bold"))
        .encoding_predefined(Name(b"WinAnsiEncoding"));
    for (s, page_id) in shipments.iter().zip(&page_ids) {
        let content_id = Ref::new(page_id.get() + 1);
        let mut page = pdf.page(*page_id);
        page.media_box(Rect::new(0.0, 0.0, page_w, page_h));
        page.parent(tree);
        page.contents(content_id);
        let mut resources = page.resources();
        let mut fonts = resources.fonts();
        fonts.pair(Name(b"F1"), regular);
        fonts.pair(Name(b"F2"), bold);
        fonts.finish();
        resources.finish();
        page.finish();
        let content = label_content(s, company, site, x0, y0);
        pdf.stream(content_id, &content.finish());
    }
    pdf.finish()
}

/// One label's drawing, its lower left corner at (`x0`, `y0`).
fn label_content(s: &pb::Shipment, company: &str, site: &str, x0: f32, y0: f32) -> Content {
    let mut c = Content::new();
    let margin = 3.0 * MM;
    let left = x0 + margin;
    let top = y0 + 6.0 * PT - margin;
    let text = |c: &mut Content, font: &[u8], size: f32, y: f32, value: &str| {
        c.begin_text();
        c.set_font(Name(font), size);
        c.next_line(left, y);
        c.show(Str(&pdf_text(value)));
        c.end_text();
    };
    // The label's edge.
    c.set_line_width(0.5);
    c.rect(x0 + 1.0, y0 + 1.0, 4.0 * PT - 2.0, 6.0 * PT - 2.0);
    c.stroke();
    let party = |p: &Option<pb::Party>| p.clone().unwrap_or_default();
    let (from, to) = (party(&s.shipper), party(&s.receiver));
    text(&mut c, b"F2", 14.0, top - 14.0, company);
    text(&mut c, b"F1", 11.0, top - 32.0, &route(s));
    text(&mut c, b"F2", 8.0, top - 50.0, "FROM");
    text(&mut c, b"F1", 10.0, top - 62.0, &from.name);
    text(&mut c, b"F1", 8.0, top - 73.0, &from.address);
    text(&mut c, b"F2", 8.0, top - 92.0, "TO");
    text(&mut c, b"F2", 13.0, top - 107.0, &to.name);
    text(&mut c, b"F1", 10.0, top - 120.0, &to.address);
    text(&mut c, b"F1", 9.0, top - 138.0, &pieces(s));

    // Code 128 of the number: 0.02 in modules (as the browser's label), 18 mm high.
    let module = PT / 50.0;
    let bars_y = top - 150.0 - 18.0 * MM;
    let bars = code128(&s.tracking_number);
    let quiet = 10.0 * module;
    let mut x = left + quiet;
    for dark in bars {
        if dark {
            c.rect(x, bars_y, module, 18.0 * MM);
        }
        x += module;
    }
    c.fill_nonzero();
    text(&mut c, b"F2", 14.0, bars_y - 16.0, &s.tracking_number);

    // The QR code of the tracking link, 24 mm square with its quiet zone, at the foot.
    let url = tracking_url(site, &s.tracking_number);
    if let Ok(qr) = qrcode::QrCode::new(url.as_bytes()) {
        let width = qr.width();
        let cell = 24.0 * MM / (width + 8) as f32;
        let base_x = left;
        let base_y = y0 + margin;
        for (i, color) in qr.to_colors().into_iter().enumerate() {
            if color == qrcode::Color::Dark {
                let (col, row) = (i % width, i / width);
                c.rect(
                    base_x + (col + 4) as f32 * cell,
                    base_y + (width - 1 - row + 4) as f32 * cell,
                    cell,
                    cell,
                );
            }
        }
        c.fill_nonzero();
    }
    let foot_x = left + 26.0 * MM;
    let foot = |c: &mut Content, font: &[u8], size: f32, y: f32, value: &str| {
        c.begin_text();
        c.set_font(Name(font), size);
        c.next_line(foot_x, y);
        c.show(Str(&pdf_text(value)));
        c.end_text();
    };
    foot(
        &mut c,
        b"F2",
        8.0,
        y0 + margin + 52.0,
        "Track this shipment",
    );
    foot(&mut c, b"F1", 7.0, y0 + margin + 42.0, &url);
    foot(
        &mut c,
        b"F1",
        8.0,
        y0 + margin + 30.0,
        &format!("Carrier: {}", s.carrier),
    );
    c
}

/// Code 128 (set B) of `value` as modules, dark or light, with the stop pattern.
fn code128(value: &str) -> Vec<bool> {
    // Set B holds the printable ASCII a tracking number is made of.
    let printable: String = value.chars().filter(|c| (' '..='~').contains(c)).collect();
    barcoders::sym::code128::Code128::new(format!("\u{0181}{printable}"))
        .map(|barcode| barcode.encode().into_iter().map(|m| m == 1).collect())
        .unwrap_or_default()
}
