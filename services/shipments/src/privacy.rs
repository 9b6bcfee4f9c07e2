//! Privacy by default: what a public lookup shows, and how a party proves who they are.

use logistics_proto::v1 as pb;
use serde::{Deserialize, Serialize};
use service_auth::TokenKey;

use crate::domain::Shipment;
use crate::error::FieldViolation;

/// What a visitor who is not staff sees (`PUBLIC_TRACKING_DETAILS`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum PublicDetails {
    /// The limited view only.
    Limited,
    /// The limited view, and the full one to a visitor who proves they are a party.
    #[default]
    Verified,
    /// Every field to anyone with the number (the original behaviour).
    Full,
}

/// The audience of the token that opens a shipment's full view (an e-mail link or a cookie).
pub const ACCESS_AUDIENCE: &str = "tracking-access";

/// Which party a full-view token was given to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Party {
    Shipper,
    Receiver,
}

/// The claims of a full-view token: bound to one shipment, one party, the parties' contact
/// details when it was made, and a fixed end.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccessGrant {
    /// The tracking number.
    pub sub: String,
    pub party: Party,
    /// When the access ends (Unix seconds), fixed at verification or at the e-mail's
    /// sending: a grant made from this one never ends later.
    pub until: i64,
    /// `contact_seal` of the shipment when the grant was made: a change of either party's
    /// e-mail or phone voids it.
    pub contacts: String,
}

impl Party {
    fn letter(self) -> char {
        match self {
            Self::Shipper => 's',
            Self::Receiver => 'r',
        }
    }
}

/// The short `access` token of an e-mailed link (about 30 characters, so the link wraps and
/// reads): the party's letter, then a compact signature over the number, the party and the
/// contact seal, none of which it needs to carry since the service knows them.
pub fn compact_access(tokens: &TokenKey, grant: &AccessGrant) -> String {
    let subject = access_subject(&grant.sub, grant.party, &grant.contacts);
    let letter = grant.party.letter();
    format!(
        "{letter}{}",
        tokens.sign_compact(ACCESS_AUDIENCE, &subject, grant.until)
    )
}

/// The grant of a valid `access` token for shipment `number`, whose contact seal is `seal`
/// now: a short one (`compact_access`), or the long JWT of links sent before those.
pub fn verify_access(
    tokens: &TokenKey,
    number: &str,
    seal: &str,
    token: &str,
) -> Option<AccessGrant> {
    let party = match token.chars().next()? {
        'e' => {
            return tokens
                .verify_link::<AccessGrant>(ACCESS_AUDIENCE, token)
                .filter(|grant| grant.sub == number && grant.contacts == seal);
        }
        's' => Party::Shipper,
        'r' => Party::Receiver,
        _ => return None,
    };
    let subject = access_subject(number, party, seal);
    let until = tokens.verify_compact(ACCESS_AUDIENCE, &subject, &token[1..])?;
    Some(AccessGrant {
        sub: number.to_owned(),
        party,
        until,
        contacts: seal.to_owned(),
    })
}

fn access_subject(number: &str, party: Party, seal: &str) -> String {
    format!("{number}\n{}\n{seal}", party.letter())
}

/// A digest of both parties' e-mail addresses and phone numbers (as compared, not as typed).
pub fn contact_seal(
    shipper_email: &str,
    shipper_phone: &str,
    receiver_email: &str,
    receiver_phone: &str,
) -> String {
    use sha2::Digest;
    let digits = |phone: &str| {
        phone
            .chars()
            .filter(char::is_ascii_digit)
            .collect::<String>()
    };
    let text = [
        shipper_email.trim().to_lowercase(),
        digits(shipper_phone),
        receiver_email.trim().to_lowercase(),
        digits(receiver_phone),
    ]
    .join("\n");
    sha2::Sha256::digest(text.as_bytes())[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The contact seal of a stored shipment.
pub fn seal_of(shipment: &Shipment) -> String {
    let d = &shipment.details;
    contact_seal(
        &d.shipper_email,
        &d.shipper_phone,
        &d.receiver_email,
        &d.receiver_phone,
    )
}

/// The contact seal of a shipment as the API shows it in full.
pub fn seal_of_proto(shipment: &pb::Shipment) -> String {
    let party = |p: &Option<pb::Party>| {
        let p = p.clone().unwrap_or_default();
        (p.email, p.phone)
    };
    let (se, sp) = party(&shipment.shipper);
    let (re, rp) = party(&shipment.receiver);
    contact_seal(&se, &sp, &re, &rp)
}

/// The public projection of a full shipment: status, journey at city level, the parties'
/// first names and initials; no street address, phone, e-mail, price or contents.
pub fn limited(full: &pb::Shipment) -> pb::Shipment {
    let party = |p: &Option<pb::Party>| {
        Some(pb::Party {
            name: p.as_ref().map(|p| short_name(&p.name)).unwrap_or_default(),
            ..pb::Party::default()
        })
    };
    pb::Shipment {
        tracking_number: full.tracking_number.clone(),
        status: full.status,
        shipper: party(&full.shipper),
        receiver: party(&full.receiver),
        origin: city_level(&full.origin),
        destination: city_level(&full.destination),
        carrier: full.carrier.clone(),
        mode: full.mode,
        package_count: full.package_count,
        weight_kg: full.weight_kg,
        expected_delivery_date: full.expected_delivery_date,
        current_location: city_level(&full.current_location),
        history: full
            .history
            .iter()
            .map(|h| pb::HistoryEntry {
                location: city_level(&h.location),
                // Who in the office wrote it is nobody else's business.
                updated_by: String::new(),
                // Staff write remarks for the parties unless they mark one public.
                remarks: if h.remarks_public {
                    h.remarks.clone()
                } else {
                    String::new()
                },
                ..h.clone()
            })
            .collect(),
        create_time: full.create_time,
        update_time: full.update_time,
        view: pb::ShipmentView::Limited.into(),
        ..pb::Shipment::default()
    }
}

/// A place cut to city and country, whatever was typed: "221B Baker Street, London SW1A
/// 2AA, UK" → "London, UK". Parts naming a street, a building or a box are dropped, and so
/// are numbers (house numbers, postcodes, phones) and the short codes that go with them;
/// of what is left, the last two parts, which is where people write city and country.
pub fn city_level(location: &str) -> String {
    let parts: Vec<String> = location
        .split([',', ';', '\n', '\r', '|', '/'])
        .filter_map(place_part)
        .collect();
    parts[parts.len().saturating_sub(2)..].join(", ")
}

/// Words that make a part of an address a street, a building or a mailbox, in the site's
/// languages and their usual abbreviations.
const STREET_WORDS: &[&str] = &[
    "street",
    "road",
    "rd",
    "avenue",
    "ave",
    "lane",
    "ln",
    "drive",
    "boulevard",
    "blvd",
    "way",
    "place",
    "square",
    "court",
    "terrace",
    "close",
    "crescent",
    "highway",
    "hwy",
    "mews",
    "parkway",
    "pkwy",
    "quay",
    "wharf",
    "dock",
    "pier",
    "suite",
    "apt",
    "apartment",
    "flat",
    "unit",
    "floor",
    "building",
    "bldg",
    "block",
    "room",
    "po",
    "box",
    "p.o.",
    "pobox",
    "c/o",
    "dept",
    "department",
    "calle",
    "c/",
    "avenida",
    "avda",
    "plaza",
    "pza",
    "paseo",
    "camino",
    "carretera",
    "ctra",
    "travesía",
    "piso",
    "puerta",
    "planta",
    "edificio",
    "apartado",
    "nº",
    "n.º",
    "rue",
    "chemin",
    "allée",
    "allee",
    "impasse",
    "quai",
    "route",
    "cours",
    "voie",
    "bâtiment",
    "batiment",
    "étage",
    "etage",
    "porte",
    "résidence",
    "residence",
    "lieu-dit",
    "cedex",
    "straße",
    "strasse",
    "str",
    "weg",
    "gasse",
    "platz",
    "damm",
    "ufer",
    "chaussee",
    "postfach",
];

/// Abbreviations that mean a street after a name and something else first ("St Albans").
const STREET_ABBREVIATIONS: &[&str] = &["st", "dr", "pl", "ct", "fl", "av", "bd", "sq", "ste"];

/// German and Dutch streets are one word: "Hauptstraße", "Keizersgracht".
const STREET_ENDINGS: &[&str] = &[
    "straße", "strasse", "str.", "gasse", "platz", "allee", "straat", "gracht", "laan", "plein",
    "kade", "steeg", "singel", "dijk",
];

/// One comma-separated part of a place as the limited view shows it, if any of it may be
/// shown.
fn place_part(part: &str) -> Option<String> {
    let words: Vec<&str> = part.split_whitespace().collect();
    let has_digits = part.chars().any(|c| c.is_numeric());
    let streety = words.iter().enumerate().any(|(i, w)| {
        let lower = w.to_lowercase();
        let bare = lower.trim_matches(|c: char| matches!(c, '.' | '(' | ')' | '"' | '\'' | ':'));
        STREET_WORDS.contains(&bare)
            || (i > 0 && STREET_ABBREVIATIONS.contains(&bare))
            || STREET_ENDINGS.iter().any(|e| lower.ends_with(e))
    });
    if streety || part.contains('@') || part.contains('#') {
        return None;
    }
    let kept: Vec<&str> = words
        .into_iter()
        .filter(|w| !w.chars().any(|c| c.is_numeric() || c == '+'))
        // Beside a number, a short upper-case word is part of a postcode or a state code.
        .filter(|w| {
            !(has_digits
                && w.chars().count() <= 3
                && w.chars().all(|c| c.is_uppercase() || !c.is_alphabetic()))
        })
        .collect();
    let text = kept.join(" ");
    let text = text.trim_matches(|c: char| !c.is_alphanumeric() && c != ')');
    text.chars()
        .any(char::is_alphabetic)
        .then(|| text.to_owned())
}

/// "Maria Garcia Lopez" → "Maria G."; a single name stays as it is.
pub fn short_name(name: &str) -> String {
    let mut words = name.split_whitespace();
    match (words.next(), words.next()) {
        (Some(first), Some(second)) => {
            let initial: String = second
                .chars()
                .take(1)
                .flat_map(char::to_uppercase)
                .collect();
            format!("{first} {initial}.")
        }
        (Some(first), None) => first.to_owned(),
        _ => String::new(),
    }
}

/// What a visitor offers as proof that they are a party.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    Email(String),
    /// The last 4 digits of a phone number.
    PhoneEnding(String),
}

pub const ANSWER_FIELD: &str = "answer";
pub const ANSWER_FORMAT: &str = "Enter the shipper's or the receiver's e-mail address, or the last 4 digits of either phone number.";
pub const NO_MATCH: &str = "These details do not match this shipment.";

impl Answer {
    pub fn parse(input: &str) -> Result<Self, FieldViolation> {
        let text = input.trim();
        let bad = || FieldViolation::new(ANSWER_FIELD, ANSWER_FORMAT);
        if text.is_empty() || text.len() > 254 || text.chars().any(char::is_control) {
            return Err(bad());
        }
        if text.contains('@') {
            return service_common::is_email(text)
                .then(|| Self::Email(text.to_lowercase()))
                .ok_or_else(bad);
        }
        let digits: String = text.chars().filter(|c| !matches!(c, ' ' | '-')).collect();
        if digits.len() == 4 && digits.bytes().all(|b| b.is_ascii_digit()) {
            Ok(Self::PhoneEnding(digits))
        } else {
            Err(bad())
        }
    }

    /// The party this answer proves, comparing every candidate in full so the time taken
    /// does not depend on where a comparison would have stopped.
    pub fn party(&self, shipment: &Shipment) -> Option<Party> {
        let d = &shipment.details;
        let (shipper, receiver) = match self {
            Self::Email(email) => (
                same(email, &d.shipper_email.trim().to_lowercase()),
                same(email, &d.receiver_email.trim().to_lowercase()),
            ),
            Self::PhoneEnding(digits) => (
                same(digits, &phone_ending(&d.shipper_phone)),
                same(digits, &phone_ending(&d.receiver_phone)),
            ),
        };
        if receiver {
            Some(Party::Receiver)
        } else if shipper {
            Some(Party::Shipper)
        } else {
            None
        }
    }
}

fn phone_ending(phone: &str) -> String {
    let digits: Vec<char> = phone.chars().filter(char::is_ascii_digit).collect();
    digits[digits.len().saturating_sub(4)..].iter().collect()
}

/// Equality that looks at every byte of the longer input.
fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut differ = a.len() ^ b.len();
    for i in 0..a.len().max(b.len()) {
        differ |= usize::from(a.get(i).copied().unwrap_or(0) ^ b.get(i).copied().unwrap_or(0));
    }
    differ == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_are_cut_to_city_and_country() {
        assert_eq!(
            city_level("12 Dock Road, Rotterdam, Netherlands"),
            "Rotterdam, Netherlands"
        );
        assert_eq!(city_level("Berlin, Germany"), "Berlin, Germany");
        assert_eq!(city_level("Lagos"), "Lagos");
        assert_eq!(city_level(" , Paris ,, France, "), "Paris, France");
    }

    #[test]
    fn streets_postcodes_and_numbers_never_reach_the_limited_view() {
        for (typed, shown) in [
            ("221B Baker Street, London", "London"),
            ("221B Baker St., London NW1 6XE, UK", "London, UK"),
            ("Baker Street, London", "London"),
            (
                "10 Downing St, London SW1A 2AA, United Kingdom",
                "London, United Kingdom",
            ),
            (
                "Hauptstraße 5, 10115 Berlin, Deutschland",
                "Berlin, Deutschland",
            ),
            (
                "Keizersgracht 12, 1015 CS Amsterdam, Netherlands",
                "Amsterdam, Netherlands",
            ),
            ("Calle Mayor 3, 28013 Madrid, España", "Madrid, España"),
            ("12 rue de Rivoli, 75001 Paris, France", "Paris, France"),
            ("350 5th Ave, New York, NY 10118, USA", "New York, USA"),
            (
                "Depot 4, Rotterdam 3011 AB, Netherlands",
                "Rotterdam, Netherlands",
            ),
            (
                "Unit 7 Dock Road\nRotterdam; Netherlands",
                "Rotterdam, Netherlands",
            ),
            ("PO Box 1234, Lagos, Nigeria", "Lagos, Nigeria"),
            ("+44 20 7946 0958, London", "London"),
            ("St Albans, United Kingdom", "St Albans, United Kingdom"),
            ("Hof, Germany", "Hof, Germany"),
            ("221B Baker Street London", ""),
            ("Warehouse 3", "Warehouse"),
        ] {
            assert_eq!(city_level(typed), shown, "{typed:?}");
        }
    }

    #[test]
    fn names_keep_the_first_name_and_an_initial() {
        assert_eq!(short_name("maria garcia lopez"), "maria G.");
        assert_eq!(short_name("Åsa Öberg"), "Åsa Ö.");
        assert_eq!(short_name("Madonna"), "Madonna");
        assert_eq!(short_name("  "), "");
    }

    #[test]
    fn answers_are_an_email_or_four_digits() {
        assert_eq!(
            Answer::parse(" Rita@Example.com ").unwrap(),
            Answer::Email("rita@example.com".into())
        );
        assert_eq!(
            Answer::parse("12 34").unwrap(),
            Answer::PhoneEnding("1234".into())
        );
        for bad in [
            "",
            "123",
            "12345",
            "abcd",
            "x@",
            "12\u{0}4",
            &"9".repeat(1 << 20),
        ] {
            assert_eq!(
                Answer::parse(bad).unwrap_err().field,
                ANSWER_FIELD,
                "{bad:?}"
            );
        }
    }

    #[test]
    fn equality_needs_every_byte() {
        assert!(same("1234", "1234"));
        assert!(!same("1234", "1235"));
        assert!(!same("1234", "12345"));
        assert!(!same("", "1"));
    }
}
