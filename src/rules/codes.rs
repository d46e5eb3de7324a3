//! Stable codes for problems and how bad each is: what the FEN reader and the variant files'
//! checks name their findings with.

use std::fmt;

/// How bad a problem is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Severity {
    /// The file is not loaded.
    Error,
    /// The file loads, but probably does not say what its author meant.
    Warning,
}

impl Severity {
    /// `"error"` or `"warning"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Declares an enum of stable problem codes with the list of every code and their strings in
/// one place, so that neither can miss a variant: the FEN reader's [`FenCode`](super::FenCode),
/// the variant files' [`ProblemCode`](crate::variants::ProblemCode).
macro_rules! stable_codes {
    ($(#[$enum_doc:meta])* $name:ident, $example:literal { $($(#[$doc:meta])* $variant:ident = $code:literal,)* }) => {
        $(#[$enum_doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$doc])* $variant,)*
        }

        impl $name {
            /// Every code, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant,)*];

            #[doc = concat!("The stable string, e.g. `", $example, "`.")]
            pub const fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $code,)*
                }
            }
        }
    };
}
pub(crate) use stable_codes;
