//! Validation of staff fields, as plain functions.

use crate::plumbing::error::AppError;

/// A plausible email address: one `@`, text on both sides, a dot in the domain, no spaces.
pub fn check_email(email: &str) -> Result<(), AppError> {
    let ok = email.len() <= 254
        && !email.contains(char::is_whitespace)
        && email.split_once('@').is_some_and(|(local, domain)| {
            !local.is_empty()
                && !domain.is_empty()
                && !domain.contains('@')
                && (domain.contains('.') || domain == "localhost")
        });
    if ok {
        Ok(())
    } else {
        Err(AppError::invalid(
            "email",
            "invalid_email",
            "Enter a valid email address.",
        ))
    }
}

pub fn check_username(username: &str) -> Result<(), AppError> {
    if username.is_empty() || username.chars().count() > 120 || username.contains(char::is_whitespace) {
        Err(AppError::invalid(
            "username",
            "invalid_username",
            "A username is 1 to 120 characters without spaces.",
        ))
    } else {
        Ok(())
    }
}

pub fn check_name(name: &str) -> Result<(), AppError> {
    if name.trim().is_empty() || name.chars().count() > 120 {
        Err(AppError::invalid(
            "name",
            "invalid_name",
            "A name is 1 to 120 characters.",
        ))
    } else {
        Ok(())
    }
}

pub fn check_phone(phone: &str) -> Result<(), AppError> {
    let digits = phone.chars().filter(char::is_ascii_digit).count();
    let allowed = phone.chars().all(|c| c.is_ascii_digit() || " +-()".contains(c));
    if phone.is_empty() || (allowed && (6..=15).contains(&digits)) {
        Ok(())
    } else {
        Err(AppError::invalid(
            "phone",
            "invalid_phone",
            "Enter a phone number of 6 to 15 digits.",
        ))
    }
}

pub fn check_title(title: &str) -> Result<(), AppError> {
    if title.chars().count() > 80 {
        Err(AppError::invalid(
            "title",
            "invalid_title",
            "A title is at most 80 characters.",
        ))
    } else {
        Ok(())
    }
}

/// Empty optional text is stored as NULL.
pub fn blank_to_none(value: Option<String>) -> Option<String> {
    value.map(|v| v.trim().to_string()).filter(|v| !v.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emails() {
        for good in ["a@b.in", "owner@localhost", "first.last+x@co-op.example.org"] {
            assert!(check_email(good).is_ok(), "{good}");
        }
        for bad in ["", "a", "@b.in", "a@", "a b@c.in", "a@b@c.in", "a@nodot"] {
            assert!(check_email(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn phones() {
        assert!(check_phone("+91 94470 12345").is_ok());
        assert!(check_phone("").is_ok());
        assert!(check_phone("12345").is_err());
        assert!(check_phone("call me").is_err());
    }
}
