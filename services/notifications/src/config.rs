//! Where e-mail goes: the EmailJS-compatible API (POST /api/v1.0/email/send; two accounts:
//! shipment e-mails and the contact form), the company's SMTP server, or the local outbox the admin reads when
//! neither is configured.

use lettre::message::Mailbox;
use service_common::settings::{ExposeSecret, SecretString};

/// Which way e-mail leaves.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum MailTransport {
    /// Into the outbox the admin reads under Emails.
    Local,
    /// The EmailJS-compatible API.
    Emailjs,
    /// The company's mail server, with the product's own templates.
    Smtp,
}

/// Where e-mail goes, as the operator sets it.
#[derive(clap::Args, Clone, Debug)]
pub struct MailSettings {
    /// `local` (e-mails go to the outbox the admin reads under Emails), `emailjs` (the e-mail
    /// API) or `smtp` (the company's mail server, with the product's own templates); unset, the
    /// API is used as soon as any EMAILJS_* variable is set.
    #[arg(long, env = "MAIL_TRANSPORT", value_enum)]
    pub mail_transport: Option<MailTransport>,
    #[command(flatten)]
    pub smtp: SmtpSettings,
    #[command(flatten)]
    pub api: EmailApiSettings,
}

/// The company's SMTP server (MAIL_TRANSPORT=smtp).
#[derive(clap::Args, Clone, Debug)]
pub struct SmtpSettings {
    /// The SMTP server's host name (MAIL_TRANSPORT=smtp).
    #[arg(long, env = "SMTP_HOST")]
    pub smtp_host: Option<String>,
    /// The SMTP server's port; unset, 587 (starttls), 465 (implicit) or 25 (none).
    #[arg(long, env = "SMTP_PORT", value_parser = clap::value_parser!(u16).range(1..))]
    pub smtp_port: Option<u16>,
    /// `starttls` (the server must offer it), `implicit` (TLS from the first byte) or `none`
    /// (only for a relay on the same host or network).
    #[arg(long, env = "SMTP_TLS", value_enum, default_value_t = SmtpTls::Starttls)]
    pub smtp_tls: SmtpTls,
    /// The SMTP account's user name, if the server requires authentication.
    #[arg(long, env = "SMTP_USERNAME")]
    pub smtp_username: Option<String>,
    /// The SMTP account's password (with SMTP_USERNAME).
    #[arg(long, env = "SMTP_PASSWORD", hide_env_values = true, value_parser = service_common::settings::secret)]
    pub smtp_password: Option<SecretString>,
    /// A PEM file of CA certificates the SMTP server's certificate may chain to, beside the
    /// system store (a company's own CA).
    #[arg(long, env = "SMTP_CA_FILE")]
    pub smtp_ca_file: Option<std::path::PathBuf>,
    /// The name the product gives in EHLO; unset, the domain of MAIL_FROM.
    #[arg(long, env = "SMTP_HELO_NAME")]
    pub smtp_helo_name: Option<String>,
    /// `true` lets SMTP_PASSWORD go over a connection without TLS (SMTP_TLS=none); otherwise
    /// that configuration is refused at start.
    #[arg(long, env = "SMTP_ALLOW_PLAINTEXT_AUTH", default_value_t = false, action = clap::ArgAction::Set)]
    pub smtp_allow_plaintext_auth: bool,
    /// The From of every e-mail sent over SMTP, e.g. `Northwind Freight <no-reply@northwind.example>`.
    #[arg(long, env = "MAIL_FROM")]
    pub mail_from: Option<String>,
    /// Where contact-form messages go over SMTP; unset, the brand's support address.
    #[arg(long, env = "CONTACT_INBOX")]
    pub contact_inbox: Option<String>,
}

/// The two accounts of the EmailJS-compatible API (MAIL_TRANSPORT=emailjs).
#[derive(clap::Args, Clone, Debug)]
pub struct EmailApiSettings {
    /// The EmailJS-compatible API (POST /api/v1.0/email/send).
    #[arg(long, env = "EMAILJS_BASE_URL", default_value = "https://api.emailjs.com", value_parser = clap::builder::NonEmptyStringValueParser::new())]
    pub emailjs_base_url: String,
    /// Account of the shipment e-mails: public key (`user_id`).
    #[arg(long, env = "EMAILJS_PUBLIC_KEY")]
    pub emailjs_public_key: Option<String>,
    /// Account of the shipment e-mails: private key, sent as `accessToken` (optional).
    #[arg(long, env = "EMAILJS_PRIVATE_KEY", hide_env_values = true, value_parser = service_common::settings::secret)]
    pub emailjs_private_key: Option<SecretString>,
    /// Account of the shipment e-mails: service id.
    #[arg(long, env = "EMAILJS_SERVICE_ID")]
    pub emailjs_service_id: Option<String>,
    /// Template of the "Shipment Created" e-mail to the shipper.
    #[arg(long, env = "EMAILJS_SHIPPER_TEMPLATE_ID")]
    pub emailjs_shipper_template_id: Option<String>,
    /// Template of the "Package Incoming" e-mail to the receiver.
    #[arg(long, env = "EMAILJS_RECEIVER_TEMPLATE_ID")]
    pub emailjs_receiver_template_id: Option<String>,
    /// Template of the status-update e-mails (to the shipper, the receiver and subscribers);
    /// unset, those e-mails fail with a message naming this variable.
    #[arg(long, env = "EMAILJS_UPDATE_TEMPLATE_ID")]
    pub emailjs_update_template_id: Option<String>,
    /// Template of the e-mail that confirms a subscription to a shipment's updates; unset,
    /// those e-mails fail with a message naming this variable.
    #[arg(long, env = "EMAILJS_SUBSCRIPTION_TEMPLATE_ID")]
    pub emailjs_subscription_template_id: Option<String>,
    /// Template of the admins' alerts (a webhook endpoint disabled; parameters `to_email`,
    /// `subject`, `endpoint_url`, `description`, `failing_since`, `url`); unset, those
    /// e-mails fail with a message naming this variable.
    #[arg(long, env = "EMAILJS_ALERT_TEMPLATE_ID")]
    pub emailjs_alert_template_id: Option<String>,
    /// Template of the invitation to a customer's account (parameters `to_name`, `to_email`,
    /// `subject`, `customer_name`, `accept_url`, `expire_time`); unset, those e-mails fail
    /// with a message naming this variable.
    #[arg(long, env = "EMAILJS_INVITATION_TEMPLATE_ID")]
    pub emailjs_invitation_template_id: Option<String>,
    /// Template of the e-mail that confirms a customer's pickup (parameters `to_email`,
    /// `subject`, `customer_name`, `address`, `pickup_date`, `pickup_window`, `parcel_count`,
    /// `parcels`); unset, those e-mails fail with a message naming this variable.
    #[arg(long, env = "EMAILJS_PICKUP_TEMPLATE_ID")]
    pub emailjs_pickup_template_id: Option<String>,
    /// Template of the e-mail that declines an account request (parameters `to_name`,
    /// `to_email`, `subject`, `company_name`, `reason`); unset, those e-mails fail with a
    /// message naming this variable.
    #[arg(long, env = "EMAILJS_ACCOUNT_DECLINED_TEMPLATE_ID")]
    pub emailjs_account_declined_template_id: Option<String>,
    /// Template of the daily digest of open exceptions (parameters `to_email`, `subject`,
    /// `total`, `counts`, `exceptions`, `more`, `queue_url`, one line each in the lists);
    /// unset, those e-mails fail with a message naming this variable.
    #[arg(long, env = "EMAILJS_DIGEST_TEMPLATE_ID")]
    pub emailjs_digest_template_id: Option<String>,
    /// The contact form's own account: public key (`user_id`).
    #[arg(long, env = "CONTACT_EMAILJS_PUBLIC_KEY")]
    pub contact_emailjs_public_key: Option<String>,
    /// The contact form's account: private key, sent as `accessToken` (optional).
    #[arg(long, env = "CONTACT_EMAILJS_PRIVATE_KEY", hide_env_values = true, value_parser = service_common::settings::secret)]
    pub contact_emailjs_private_key: Option<SecretString>,
    /// The contact form's account: service id.
    #[arg(long, env = "CONTACT_EMAILJS_SERVICE_ID")]
    pub contact_emailjs_service_id: Option<String>,
    /// Template of the contact form's e-mail.
    #[arg(long, env = "CONTACT_EMAILJS_TEMPLATE_ID")]
    pub contact_emailjs_template_id: Option<String>,
}

/// A setting's value unless it is unset or blank (an empty Kubernetes secret key).
fn given(value: &Option<String>) -> Option<&str> {
    value.as_deref().filter(|v| !v.trim().is_empty())
}

fn given_secret(value: &Option<SecretString>) -> Option<SecretString> {
    value
        .as_ref()
        .filter(|v| !v.expose_secret().trim().is_empty())
        .cloned()
}

/// The names of the settings among `required` that are not given.
fn missing(required: &[(&'static str, Option<&str>)]) -> Vec<&'static str> {
    required
        .iter()
        .filter(|(_, value)| value.is_none())
        .map(|(name, _)| *name)
        .collect()
}

/// One account of the e-mail API.
#[derive(Clone, Debug)]
pub struct Account {
    /// `user_id` in the API's terms.
    pub public_key: String,
    /// Sent as `accessToken` when set.
    pub private_key: Option<SecretString>,
    pub service_id: String,
}

#[derive(Clone, Debug)]
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
    /// The invitations to a customer's account; unset, those e-mails fail naming it.
    pub invitation_template: Option<String>,
    /// The confirmations of a customer's pickup; unset, those e-mails fail naming it.
    pub pickup_template: Option<String>,
    /// The declined account requests; unset, those e-mails fail naming it.
    pub account_declined_template: Option<String>,
    /// The daily digests of open exceptions; unset, those e-mails fail naming it.
    pub digest_template: Option<String>,
    pub contact: Account,
    pub contact_template: String,
}

/// How the connection to the SMTP server is secured.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SmtpTls {
    /// Plain connection upgraded with STARTTLS, which the server must offer (port 587).
    Starttls,
    /// TLS from the first byte (port 465).
    Implicit,
    /// No TLS: only for a relay on the same host or network.
    None,
}

#[derive(Clone, Debug)]
pub struct SmtpConfig {
    pub host: String,
    pub port: u16,
    pub tls: SmtpTls,
    pub username: Option<String>,
    pub password: Option<SecretString>,
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

#[derive(Clone, Debug)]
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

impl MailSettings {
    /// The transport the settings name; unset, the API as soon as any of its settings is given.
    pub fn config(&self) -> MailConfig {
        let wants_api = match self.mail_transport {
            Some(MailTransport::Local) => false,
            Some(MailTransport::Emailjs) => true,
            Some(MailTransport::Smtp) => return self.smtp.config(),
            None => self.api.any_given(),
        };
        if wants_api {
            self.api.config()
        } else {
            MailConfig::LocalOutbox
        }
    }
}

impl EmailApiSettings {
    /// The settings the API needs, by variable name (so a missing one can be named); the
    /// private keys are optional.
    fn required(&self) -> [(&'static str, Option<&str>); 7] {
        [
            ("EMAILJS_PUBLIC_KEY", given(&self.emailjs_public_key)),
            ("EMAILJS_SERVICE_ID", given(&self.emailjs_service_id)),
            (
                "EMAILJS_SHIPPER_TEMPLATE_ID",
                given(&self.emailjs_shipper_template_id),
            ),
            (
                "EMAILJS_RECEIVER_TEMPLATE_ID",
                given(&self.emailjs_receiver_template_id),
            ),
            (
                "CONTACT_EMAILJS_PUBLIC_KEY",
                given(&self.contact_emailjs_public_key),
            ),
            (
                "CONTACT_EMAILJS_SERVICE_ID",
                given(&self.contact_emailjs_service_id),
            ),
            (
                "CONTACT_EMAILJS_TEMPLATE_ID",
                given(&self.contact_emailjs_template_id),
            ),
        ]
    }

    fn any_given(&self) -> bool {
        self.required().iter().any(|(_, value)| value.is_some())
            || given_secret(&self.emailjs_private_key).is_some()
            || given_secret(&self.contact_emailjs_private_key).is_some()
    }

    fn config(&self) -> MailConfig {
        let missing = missing(&self.required());
        if !missing.is_empty() {
            return MailConfig::Missing(missing);
        }
        let get = |value: &Option<String>| given(value).unwrap_or_default().to_owned();
        let optional = |value: &Option<String>| given(value).map(str::to_owned);
        MailConfig::EmailApi(EmailApiConfig {
            base_url: self.emailjs_base_url.clone(),
            shipments: Account {
                public_key: get(&self.emailjs_public_key),
                private_key: given_secret(&self.emailjs_private_key),
                service_id: get(&self.emailjs_service_id),
            },
            shipper_template: get(&self.emailjs_shipper_template_id),
            receiver_template: get(&self.emailjs_receiver_template_id),
            update_template: optional(&self.emailjs_update_template_id),
            alert_template: optional(&self.emailjs_alert_template_id),
            subscription_template: optional(&self.emailjs_subscription_template_id),
            invitation_template: optional(&self.emailjs_invitation_template_id),
            pickup_template: optional(&self.emailjs_pickup_template_id),
            account_declined_template: optional(&self.emailjs_account_declined_template_id),
            digest_template: optional(&self.emailjs_digest_template_id),
            contact: Account {
                public_key: get(&self.contact_emailjs_public_key),
                private_key: given_secret(&self.contact_emailjs_private_key),
                service_id: get(&self.contact_emailjs_service_id),
            },
            contact_template: get(&self.contact_emailjs_template_id),
        })
    }
}

impl SmtpSettings {
    fn config(&self) -> MailConfig {
        let missing = missing(&[
            ("SMTP_HOST", given(&self.smtp_host)),
            ("MAIL_FROM", given(&self.mail_from)),
        ]);
        if !missing.is_empty() {
            return MailConfig::Missing(missing);
        }
        match self.smtp() {
            Ok(config) => MailConfig::Smtp(config),
            Err(problem) => MailConfig::Invalid(problem),
        }
    }

    fn smtp(&self) -> Result<SmtpConfig, String> {
        let tls = self.smtp_tls;
        let port = self.smtp_port.unwrap_or(match tls {
            SmtpTls::Starttls => 587,
            SmtpTls::Implicit => 465,
            SmtpTls::None => 25,
        });
        let mailbox = |name: &str, value: &Option<String>| {
            given(value)
                .map(|value| {
                    value.parse::<Mailbox>().map_err(|_| {
                        format!("{name} must be an address like Name <mail@example.com>")
                    })
                })
                .transpose()
        };
        let username = given(&self.smtp_username).map(str::to_owned);
        let password = given_secret(&self.smtp_password);
        if username.is_some() != password.is_some() {
            return Err("SMTP_USERNAME and SMTP_PASSWORD must be set together".into());
        }
        let helo_name = given(&self.smtp_helo_name).map(|n| n.trim().to_owned());
        if let Some(name) = &helo_name
            && !is_helo_name(name)
        {
            return Err(
                "SMTP_HELO_NAME must be a host name such as mail.example.com or an address literal such as [192.0.2.1]"
                    .into(),
            );
        }
        Ok(SmtpConfig {
            host: given(&self.smtp_host).unwrap_or_default().to_owned(),
            port,
            tls,
            username,
            password,
            from: mailbox("MAIL_FROM", &self.mail_from)?
                .unwrap_or_else(|| unreachable!("checked above")),
            contact_inbox: mailbox("CONTACT_INBOX", &self.contact_inbox)?,
            ca_file: self.smtp_ca_file.clone(),
            helo_name,
            allow_plaintext_auth: self.smtp_allow_plaintext_auth,
        })
    }
}

impl MailConfig {
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

    fn mail(flags: &[&str]) -> MailConfig {
        service_common::settings::from_flags::<MailSettings>(flags)
            .unwrap()
            .config()
    }

    #[test]
    fn nothing_configured_is_the_local_outbox() {
        assert!(matches!(mail(&[]), MailConfig::LocalOutbox));
    }

    #[test]
    fn a_partial_api_configuration_names_exactly_what_is_missing() {
        let config = mail(&["--emailjs-public-key", "pk", "--emailjs-service-id", "svc"]);
        assert_eq!(
            config.problem().unwrap(),
            "Missing required environment variables: EMAILJS_SHIPPER_TEMPLATE_ID, EMAILJS_RECEIVER_TEMPLATE_ID, \
             CONTACT_EMAILJS_PUBLIC_KEY, CONTACT_EMAILJS_SERVICE_ID, CONTACT_EMAILJS_TEMPLATE_ID"
        );
        let MailConfig::Missing(asked) = mail(&["--mail-transport", "emailjs"]) else {
            panic!("every API setting is missing")
        };
        assert_eq!(
            asked,
            [
                "EMAILJS_PUBLIC_KEY",
                "EMAILJS_SERVICE_ID",
                "EMAILJS_SHIPPER_TEMPLATE_ID",
                "EMAILJS_RECEIVER_TEMPLATE_ID",
                "CONTACT_EMAILJS_PUBLIC_KEY",
                "CONTACT_EMAILJS_SERVICE_ID",
                "CONTACT_EMAILJS_TEMPLATE_ID",
            ]
        );
        // A blank value (an empty secret key) counts as unset.
        assert!(matches!(
            mail(&["--emailjs-public-key", " "]),
            MailConfig::LocalOutbox
        ));
    }

    #[test]
    fn smtp_takes_its_port_from_the_tls_mode_and_names_what_is_wrong() {
        let config = mail(&[
            "--mail-transport",
            "smtp",
            "--smtp-host",
            "mail.example",
            "--mail-from",
            "Northwind <no-reply@northwind.example>",
            "--smtp-tls",
            "implicit",
        ]);
        let MailConfig::Smtp(smtp) = config else {
            panic!("{config:?}")
        };
        assert_eq!((smtp.port, smtp.tls), (465, SmtpTls::Implicit));
        assert_eq!(smtp.from.name.as_deref(), Some("Northwind"));
        assert_eq!(
            mail(&["--mail-transport", "smtp"]).problem().unwrap(),
            "Missing required environment variables: SMTP_HOST, MAIL_FROM"
        );
        for (flag, value, problem) in [
            (
                "--mail-from",
                "nobody",
                "MAIL_FROM must be an address like Name <mail@example.com>",
            ),
            (
                "--smtp-username",
                "ada",
                "SMTP_USERNAME and SMTP_PASSWORD must be set together",
            ),
            (
                "--smtp-helo-name",
                "mail.example\r\nRCPT TO:<x@example.com>",
                "SMTP_HELO_NAME must be a host name such as mail.example.com or an address literal such as [192.0.2.1]",
            ),
            (
                "--smtp-helo-name",
                "[not-an-ip]",
                "SMTP_HELO_NAME must be a host name such as mail.example.com or an address literal such as [192.0.2.1]",
            ),
        ] {
            let base = [
                ("--mail-transport", "smtp"),
                ("--smtp-host", "mail.example"),
                ("--mail-from", "no-reply@northwind.example"),
            ];
            let flags: Vec<&str> = base
                .into_iter()
                .filter(|(f, _)| *f != flag)
                .chain([(flag, value)])
                .flat_map(|(f, v)| [f, v])
                .collect();
            assert_eq!(
                mail(&flags).problem().as_deref(),
                Some(problem),
                "{flag}={value}"
            );
        }
    }

    #[test]
    fn a_value_of_the_wrong_kind_is_refused_by_the_parser() {
        for flags in [
            ["--mail-transport", "sendgrid"],
            ["--smtp-tls", "ssl"],
            ["--smtp-port", "0"],
            ["--smtp-port", "smtp"],
            ["--smtp-allow-plaintext-auth", "yes"],
        ] {
            assert!(
                service_common::settings::from_flags::<MailSettings>(&flags).is_err(),
                "{flags:?}"
            );
        }
    }

    #[test]
    fn debug_never_shows_a_secret() {
        let settings = service_common::settings::from_flags::<MailSettings>(&[
            "--mail-transport",
            "smtp",
            "--smtp-host",
            "mail.example",
            "--mail-from",
            "no-reply@northwind.example",
            "--smtp-username",
            "ada",
            "--smtp-password",
            "hunter2-smtp",
            "--emailjs-private-key",
            "hunter2-api",
            "--contact-emailjs-private-key",
            "hunter2-contact",
        ])
        .unwrap();
        let shown = format!("{settings:?} {:?}", settings.config());
        for secret in ["hunter2-smtp", "hunter2-api", "hunter2-contact"] {
            assert!(!shown.contains(secret), "{shown}");
        }
    }
}
