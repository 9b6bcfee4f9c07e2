//! Where e-mail goes: the EmailJS-compatible API (POST /api/v1.0/email/send; two accounts:
//! shipment e-mails and the contact form), the company's SMTP server, or the local outbox the admin reads when
//! neither is configured.

use lettre::message::Mailbox;

/// One account of the e-mail API.
#[derive(Clone, Debug, PartialEq)]
pub struct Account {
    /// `user_id` in the API's terms.
    pub public_key: String,
    /// Sent as `accessToken` when set.
    pub private_key: Option<String>,
    pub service_id: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct EmailApiConfig {
    /// e.g. https://api.emailjs.com
    pub base_url: String,
    pub shipments: Account,
    pub shipper_template: String,
    pub receiver_template: String,
    /// Optional: status updates fail, naming the variable, until it is set.
    pub update_template: Option<String>,
    /// The admins' alerts (a webhook endpoint disabled); unset, those e-mails fail naming it.
    pub alert_template: Option<String>,
    pub subscription_template: Option<String>,
    pub contact: Account,
    pub contact_template: String,
}

/// How the connection to the SMTP server is secured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SmtpTls {
    /// Plain connection upgraded with STARTTLS, which the server must offer (port 587).
    Starttls,
    /// TLS from the first byte (port 465).
    Implicit,
    /// No TLS: only for a relay on the same host or network.
    None,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SmtpConfig {
    pub host: String,
    pub port: u16,
    pub tls: SmtpTls,
    pub username: Option<String>,
    pub password: Option<String>,
    /// The From of every e-mail, e.g. `Northwind Freight <no-reply@northwind.example>`.
    pub from: Mailbox,
    /// Where contact-form messages go; the brand's support address when unset.
    pub contact_inbox: Option<Mailbox>,
    /// PEM certificates trusted beside the system store (a company's own CA).
    pub ca_file: Option<std::path::PathBuf>,
    /// The name given in EHLO; unset, the domain of `from`.
    pub helo_name: Option<String>,
    /// Lets the password go over a connection without TLS (SMTP_TLS=none).
    pub allow_plaintext_auth: bool,
}

/// Whether `name` may be given in EHLO: a domain name or an address literal such as `[192.0.2.1]`.
fn is_helo_name(name: &str) -> bool {
    if let Some(literal) = name.strip_prefix('[').and_then(|n| n.strip_suffix(']')) {
        let ip = literal.strip_prefix("IPv6:").unwrap_or(literal);
        return ip.parse::<std::net::IpAddr>().is_ok();
    }
    name.len() <= 253
        && name.split('.').all(|label| {
            (1..=63).contains(&label.len())
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-')
                && !label.starts_with('-')
                && !label.ends_with('-')
        })
}

#[derive(Clone, Debug, PartialEq)]
#[allow(clippy::large_enum_variant)] // built once per process
pub enum MailConfig {
    /// Delivered into the outbox the admin reads: the all-in-one default.
    LocalOutbox,
    EmailApi(EmailApiConfig),
    Smtp(SmtpConfig),
    /// A transport was asked for but these variables are unset.
    Missing(Vec<&'static str>),
    /// A variable is set to something unusable; the message names it.
    Invalid(String),
}

pub const DEFAULT_BASE_URL: &str = "https://api.emailjs.com";

/// The variables the API needs; the private keys are optional.
const REQUIRED: [&str; 7] = [
    "EMAILJS_PUBLIC_KEY",
    "EMAILJS_SERVICE_ID",
    "EMAILJS_SHIPPER_TEMPLATE_ID",
    "EMAILJS_RECEIVER_TEMPLATE_ID",
    "CONTACT_EMAILJS_PUBLIC_KEY",
    "CONTACT_EMAILJS_SERVICE_ID",
    "CONTACT_EMAILJS_TEMPLATE_ID",
];

impl MailConfig {
    /// By variable name: `MAIL_TRANSPORT` is `local`, `emailjs` or `smtp`; unset, the API is
    /// used as soon as any of its variables is set.
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Self {
        let wants_api = match var("MAIL_TRANSPORT").as_deref() {
            Some("local") => false,
            Some("emailjs") => true,
            Some("smtp") => return Self::smtp_from_vars(var),
            Some(_) => {
                return MailConfig::Invalid("MAIL_TRANSPORT must be local, emailjs or smtp".into());
            }
            None => REQUIRED
                .iter()
                .chain(["EMAILJS_PRIVATE_KEY", "CONTACT_EMAILJS_PRIVATE_KEY"].iter())
                .any(|n| var(n).is_some()),
        };
        if !wants_api {
            return MailConfig::LocalOutbox;
        }
        let missing: Vec<&'static str> =
            REQUIRED.into_iter().filter(|n| var(n).is_none()).collect();
        if !missing.is_empty() {
            return MailConfig::Missing(missing);
        }
        let get = |n: &str| var(n).unwrap_or_default();
        MailConfig::EmailApi(EmailApiConfig {
            base_url: var("EMAILJS_BASE_URL").unwrap_or_else(|| DEFAULT_BASE_URL.to_owned()),
            shipments: Account {
                public_key: get("EMAILJS_PUBLIC_KEY"),
                private_key: var("EMAILJS_PRIVATE_KEY"),
                service_id: get("EMAILJS_SERVICE_ID"),
            },
            shipper_template: get("EMAILJS_SHIPPER_TEMPLATE_ID"),
            receiver_template: get("EMAILJS_RECEIVER_TEMPLATE_ID"),
            update_template: var("EMAILJS_UPDATE_TEMPLATE_ID"),
            alert_template: var("EMAILJS_ALERT_TEMPLATE_ID"),
            subscription_template: var("EMAILJS_SUBSCRIPTION_TEMPLATE_ID"),
            contact: Account {
                public_key: get("CONTACT_EMAILJS_PUBLIC_KEY"),
                private_key: var("CONTACT_EMAILJS_PRIVATE_KEY"),
                service_id: get("CONTACT_EMAILJS_SERVICE_ID"),
            },
            contact_template: get("CONTACT_EMAILJS_TEMPLATE_ID"),
        })
    }

    fn smtp_from_vars(var: impl Fn(&str) -> Option<String>) -> Self {
        let missing: Vec<&'static str> = ["SMTP_HOST", "MAIL_FROM"]
            .into_iter()
            .filter(|n| var(n).is_none())
            .collect();
        if !missing.is_empty() {
            return MailConfig::Missing(missing);
        }
        match Self::smtp(&var) {
            Ok(config) => MailConfig::Smtp(config),
            Err(problem) => MailConfig::Invalid(problem),
        }
    }

    fn smtp(var: &impl Fn(&str) -> Option<String>) -> Result<SmtpConfig, String> {
        let tls = match var("SMTP_TLS").as_deref() {
            None | Some("starttls") => SmtpTls::Starttls,
            Some("implicit") => SmtpTls::Implicit,
            Some("none") => SmtpTls::None,
            Some(_) => return Err("SMTP_TLS must be starttls, implicit or none".into()),
        };
        let port = match var("SMTP_PORT") {
            None => match tls {
                SmtpTls::Starttls => 587,
                SmtpTls::Implicit => 465,
                SmtpTls::None => 25,
            },
            Some(port) => port
                .parse::<u16>()
                .ok()
                .filter(|p| *p > 0)
                .ok_or("SMTP_PORT must be a port number (1-65535)")?,
        };
        let mailbox = |name: &str| {
            var(name)
                .map(|value| {
                    value.parse::<Mailbox>().map_err(|_| {
                        format!("{name} must be an address like Name <mail@example.com>")
                    })
                })
                .transpose()
        };
        let (username, password) = (var("SMTP_USERNAME"), var("SMTP_PASSWORD"));
        if username.is_some() != password.is_some() {
            return Err("SMTP_USERNAME and SMTP_PASSWORD must be set together".into());
        }
        let helo_name = var("SMTP_HELO_NAME").map(|n| n.trim().to_owned());
        if let Some(name) = &helo_name
            && !is_helo_name(name)
        {
            return Err(
                "SMTP_HELO_NAME must be a host name such as mail.example.com or an address literal such as [192.0.2.1]"
                    .into(),
            );
        }
        let allow_plaintext_auth = match var("SMTP_ALLOW_PLAINTEXT_AUTH").as_deref().map(str::trim)
        {
            None | Some("false") => false,
            Some("true") => true,
            Some(_) => return Err("SMTP_ALLOW_PLAINTEXT_AUTH must be true or false".into()),
        };
        Ok(SmtpConfig {
            host: var("SMTP_HOST").unwrap_or_default(),
            port,
            tls,
            username,
            password,
            from: mailbox("MAIL_FROM")?.unwrap_or_else(|| unreachable!("checked above")),
            contact_inbox: mailbox("CONTACT_INBOX")?,
            ca_file: var("SMTP_CA_FILE").map(std::path::PathBuf::from),
            helo_name,
            allow_plaintext_auth,
        })
    }

    /// Why sending is impossible: `Missing required environment variables: A, B`, or the
    /// variable that is set wrong.
    pub fn problem(&self) -> Option<String> {
        match self {
            MailConfig::Missing(names) => Some(format!(
                "Missing required environment variables: {}",
                names.join(", ")
            )),
            MailConfig::Invalid(problem) => Some(problem.clone()),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |name| {
            pairs
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
        }
    }

    #[test]
    fn nothing_configured_is_the_local_outbox() {
        assert_eq!(MailConfig::from_vars(vars(&[])), MailConfig::LocalOutbox);
    }

    #[test]
    fn a_partial_api_configuration_names_exactly_what_is_missing() {
        let config = MailConfig::from_vars(vars(&[
            ("EMAILJS_PUBLIC_KEY", "pk"),
            ("EMAILJS_SERVICE_ID", "svc"),
        ]));
        assert_eq!(
            config.problem().unwrap(),
            "Missing required environment variables: EMAILJS_SHIPPER_TEMPLATE_ID, EMAILJS_RECEIVER_TEMPLATE_ID, \
             CONTACT_EMAILJS_PUBLIC_KEY, CONTACT_EMAILJS_SERVICE_ID, CONTACT_EMAILJS_TEMPLATE_ID"
        );
        let asked = MailConfig::from_vars(vars(&[("MAIL_TRANSPORT", "emailjs")]));
        assert_eq!(asked, MailConfig::Missing(REQUIRED.to_vec()));
    }

    #[test]
    fn smtp_takes_its_port_from_the_tls_mode_and_names_what_is_wrong() {
        let config = MailConfig::from_vars(vars(&[
            ("MAIL_TRANSPORT", "smtp"),
            ("SMTP_HOST", "mail.example"),
            ("MAIL_FROM", "Northwind <no-reply@northwind.example>"),
            ("SMTP_TLS", "implicit"),
        ]));
        let MailConfig::Smtp(smtp) = config else {
            panic!("{config:?}")
        };
        assert_eq!((smtp.port, smtp.tls), (465, SmtpTls::Implicit));
        assert_eq!(smtp.from.name.as_deref(), Some("Northwind"));
        assert_eq!(
            MailConfig::from_vars(vars(&[("MAIL_TRANSPORT", "smtp")]))
                .problem()
                .unwrap(),
            "Missing required environment variables: SMTP_HOST, MAIL_FROM"
        );
        for (name, value, problem) in [
            (
                "SMTP_TLS",
                "ssl",
                "SMTP_TLS must be starttls, implicit or none",
            ),
            (
                "SMTP_PORT",
                "0",
                "SMTP_PORT must be a port number (1-65535)",
            ),
            (
                "SMTP_PORT",
                "smtp",
                "SMTP_PORT must be a port number (1-65535)",
            ),
            (
                "MAIL_FROM",
                "nobody",
                "MAIL_FROM must be an address like Name <mail@example.com>",
            ),
            (
                "SMTP_USERNAME",
                "ada",
                "SMTP_USERNAME and SMTP_PASSWORD must be set together",
            ),
            (
                "SMTP_HELO_NAME",
                "mail.example\r\nRCPT TO:<x@example.com>",
                "SMTP_HELO_NAME must be a host name such as mail.example.com or an address literal such as [192.0.2.1]",
            ),
            (
                "SMTP_HELO_NAME",
                "[not-an-ip]",
                "SMTP_HELO_NAME must be a host name such as mail.example.com or an address literal such as [192.0.2.1]",
            ),
            (
                "SMTP_ALLOW_PLAINTEXT_AUTH",
                "yes",
                "SMTP_ALLOW_PLAINTEXT_AUTH must be true or false",
            ),
        ] {
            let config = MailConfig::from_vars(|n| match n {
                _ if n == name => Some(value.to_owned()),
                "MAIL_TRANSPORT" => Some("smtp".into()),
                "SMTP_HOST" => Some("mail.example".into()),
                "MAIL_FROM" => Some("no-reply@northwind.example".into()),
                _ => None,
            });
            assert_eq!(config.problem().as_deref(), Some(problem), "{name}={value}");
        }
        assert_eq!(
            MailConfig::from_vars(vars(&[("MAIL_TRANSPORT", "sendgrid")]))
                .problem()
                .unwrap(),
            "MAIL_TRANSPORT must be local, emailjs or smtp"
        );
    }
}
