//! Which network addresses a [`Fetcher`](crate::Fetcher) may connect to:
//! a guard for services that fetch URLs their users give them.
//!
//! A service that fetches a robots.txt for anyone (a web tester, an API)
//! must not become a way into the network it runs in: `http://127.0.0.1/`,
//! `http://10.0.0.1/`, a name that resolves to `::1`, or a public site
//! that redirects to one of those. With [`AddressPolicy::public_only`],
//! every address is judged where it is used: the addresses a host name
//! resolves to, before connecting (so a name that resolves to a private
//! address is refused, and a name cannot resolve to one address when
//! judged and another when connected to), and a host written as an
//! address, on every request, redirects included.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;

/// Which addresses a [`Fetcher`](crate::Fetcher) may connect to. The
/// default, [`AddressPolicy::any`], allows every address, as a crawler
/// needs; [`AddressPolicy::public_only`] is for services that fetch URLs
/// from untrusted users.
///
/// Under a policy other than `any`, the fetcher uses no proxy (a proxy
/// would resolve names where they cannot be judged), and FTP data
/// connections go to the address of the checked control connection.
///
/// # Example
///
/// ```
/// use robotrules_fetch::{AddressPolicy, FetcherConfig};
///
/// let policy = AddressPolicy::public_only();
/// assert!(!policy.allows("127.0.0.1".parse()?));
/// assert!(!policy.allows("::ffff:10.0.0.1".parse()?));
/// assert!(policy.allows("93.184.215.14".parse()?));
/// let fetcher = FetcherConfig::default().address_policy(policy).build()?;
/// # let _ = fetcher;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct AddressPolicy {
    rule: Rule,
}

#[derive(Clone)]
enum Rule {
    Any,
    PublicOnly,
    Custom(Arc<dyn Fn(IpAddr) -> bool + Send + Sync>),
}

impl AddressPolicy {
    /// Every address is allowed (the default).
    pub fn any() -> AddressPolicy {
        AddressPolicy { rule: Rule::Any }
    }

    /// Only public addresses are allowed: see [`is_public`].
    pub fn public_only() -> AddressPolicy {
        AddressPolicy { rule: Rule::PublicOnly }
    }

    /// The addresses for which `allow` returns true are allowed.
    pub fn custom(
        allow: impl Fn(IpAddr) -> bool + Send + Sync + 'static,
    ) -> AddressPolicy {
        AddressPolicy { rule: Rule::Custom(Arc::new(allow)) }
    }

    /// Returns true if and only if this policy allows every address.
    pub fn is_any(&self) -> bool {
        matches!(self.rule, Rule::Any)
    }

    /// Returns true if and only if the fetcher may connect to `ip`.
    pub fn allows(&self, ip: IpAddr) -> bool {
        match &self.rule {
            Rule::Any => true,
            Rule::PublicOnly => is_public(ip),
            Rule::Custom(allow) => allow(ip),
        }
    }

    /// The addresses of `addrs` that are allowed, or the refusal of the
    /// first one if none is.
    pub(crate) fn filter(
        &self,
        host: &str,
        addrs: impl IntoIterator<Item = SocketAddr>,
    ) -> Result<Vec<SocketAddr>, Refused> {
        let mut first = None;
        let mut kept = Vec::new();
        for addr in addrs {
            if self.allows(addr.ip()) {
                kept.push(addr);
            } else if first.is_none() {
                first = Some(addr.ip());
            }
        }
        match (kept.is_empty(), first) {
            (false, _) => Ok(kept),
            (true, Some(ip)) => Err(Refused::new(host, ip)),
            (true, None) => Err(Refused {
                message: format!("{host} resolves to no address"),
            }),
        }
    }
}

impl Default for AddressPolicy {
    fn default() -> Self {
        AddressPolicy::any()
    }
}

impl fmt::Debug for AddressPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.rule {
            Rule::Any => "AddressPolicy::any()",
            Rule::PublicOnly => "AddressPolicy::public_only()",
            Rule::Custom(_) => "AddressPolicy::custom(..)",
        })
    }
}

/// A connection the policy does not allow.
#[derive(Clone, Debug, Eq, PartialEq)]
pub(crate) struct Refused {
    pub(crate) message: String,
}

impl Refused {
    pub(crate) fn new(host: &str, ip: IpAddr) -> Refused {
        let message = if host.trim_matches(['[', ']']) == ip.to_string() {
            format!("{ip} is not a public address")
        } else {
            format!("{host} resolves to {ip}, not a public address")
        };
        Refused { message }
    }
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Refused {}

/// Returns true if and only if `ip` is a public unicast address: one a
/// site on the Internet may have.
///
/// Refused: loopback, unspecified, private (RFC 1918), shared (CGNAT,
/// RFC 6598), link-local, multicast, broadcast, documentation and
/// benchmarking ranges, reserved and protocol-assignment blocks, unique
/// local IPv6 (`fc00::/7`), site-local, discard-only, and every IPv6
/// address outside `2000::/3`. IPv6 forms that carry an IPv4 address
/// (`::ffff:a.b.c.d`, NAT64 `64:ff9b::a.b.c.d`, 6to4 `2002:…`) are judged
/// by that IPv4 address; the deprecated IPv4-compatible form (`::a.b.c.d`)
/// and Teredo are refused.
///
/// # Example
///
/// ```
/// use robotrules_fetch::is_public;
///
/// assert!(!is_public("169.254.169.254".parse()?));
/// assert!(!is_public("100.64.0.1".parse()?));
/// assert!(!is_public("::ffff:127.0.0.1".parse()?));
/// assert!(is_public("2606:4700::1111".parse()?));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_public_v4(v4),
        IpAddr::V6(v6) => is_public_v6(v6),
    }
}

fn is_public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    !(a == 0                                   // "this network", RFC 791
        || a == 10                             // private, RFC 1918
        || (a == 100 && (64..128).contains(&b)) // shared (CGNAT), RFC 6598
        || a == 127                            // loopback
        || (a == 169 && b == 254)              // link-local, RFC 3927
        || (a == 172 && (16..32).contains(&b)) // private
        || (a == 192 && b == 0 && c == 0)      // protocol assignments
        || (a == 192 && b == 0 && c == 2)      // TEST-NET-1, RFC 5737
        || (a == 192 && b == 88 && c == 99)    // 6to4 relay, RFC 7526
        || (a == 192 && b == 168)              // private
        || (a == 198 && (b == 18 || b == 19))  // benchmarking, RFC 2544
        || (a == 198 && b == 51 && c == 100)   // TEST-NET-2
        || (a == 203 && b == 0 && c == 113)    // TEST-NET-3
        || a >= 224) // multicast, reserved, broadcast
}

fn is_public_v6(ip: Ipv6Addr) -> bool {
    let s = ip.segments();
    let embedded = |hi: usize| {
        let [a, b] = s[hi].to_be_bytes();
        let [c, d] = s[hi + 1].to_be_bytes();
        Ipv4Addr::new(a, b, c, d)
    };
    // ::ffff:a.b.c.d (IPv4-mapped) and 64:ff9b::a.b.c.d (NAT64, RFC 6052).
    if s[..5] == [0; 5] && s[5] == 0xffff
        || s[..6] == [0x64, 0xff9b, 0, 0, 0, 0]
    {
        return is_public_v4(embedded(6));
    }
    // 6to4 (RFC 3056): 2002:AABB:CCDD::/48.
    if s[0] == 0x2002 {
        return is_public_v4(embedded(1));
    }
    // Global unicast is 2000::/3; within it, refuse the special blocks.
    // 2001::/23 (protocol assignments, Teredo); 2001:db8::/32 and
    // 3fff::/20 (documentation, RFC 3849 and RFC 9637).
    let special = (s[0] == 0x2001 && (s[1] < 0x0200 || s[1] == 0x0db8))
        || (s[0] & 0xfff0) == 0x3ff0;
    (s[0] & 0xe000) == 0x2000 && !special
}

#[cfg(test)]
mod tests {
    use super::*;

    macro_rules! public {
        ($($ip:literal => $want:expr),* $(,)?) => {$(
            assert_eq!(
                is_public($ip.parse().unwrap()), $want, "{}", $ip
            );
        )*};
    }

    #[test]
    fn ipv4() {
        public! {
            "0.0.0.0" => false, "0.1.2.3" => false, "10.0.0.1" => false,
            "100.63.255.255" => true, "100.64.0.1" => false,
            "100.127.255.255" => false, "100.128.0.0" => true,
            "127.0.0.1" => false, "127.255.255.254" => false,
            "169.254.169.254" => false, "172.15.0.1" => true,
            "172.16.0.1" => false, "172.31.255.255" => false,
            "172.32.0.1" => true, "192.0.0.8" => false,
            "192.0.2.1" => false, "192.88.99.1" => false,
            "192.168.1.1" => false, "198.18.0.1" => false,
            "198.19.255.1" => false, "198.51.100.7" => false,
            "203.0.113.9" => false, "224.0.0.1" => false,
            "239.255.255.250" => false, "240.0.0.1" => false,
            "255.255.255.255" => false, "8.8.8.8" => true,
            "93.184.215.14" => true, "1.1.1.1" => true,
        }
    }

    #[test]
    fn ipv6() {
        public! {
            "::" => false, "::1" => false, "::127.0.0.1" => false,
            "::ffff:127.0.0.1" => false, "::ffff:10.1.2.3" => false,
            "::ffff:8.8.8.8" => true, "64:ff9b::7f00:1" => false,
            "64:ff9b::808:808" => true, "64:ff9b:1::1" => false,
            "100::1" => false, "2001::1" => false, "2001:db8::1" => false,
            "2001:10::1" => false, "2002:7f00:1::1" => false,
            "2002:0808:0808::1" => true, "fc00::1" => false,
            "fd12:3456::1" => false, "fe80::1" => false, "fec0::1" => false,
            "ff02::1" => false, "3fff::1" => false, "4000::1" => false,
            "2606:4700::1111" => true, "2a00:1450:4001::200e" => true,
            "2001:4860:4860::8888" => true,
        }
    }

    #[test]
    fn policies() {
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        assert!(AddressPolicy::any().allows(ip("127.0.0.1")));
        assert!(AddressPolicy::default().is_any());
        assert!(!AddressPolicy::public_only().allows(ip("127.0.0.1")));
        let only = AddressPolicy::custom(|a| a == Ipv4Addr::LOCALHOST);
        assert!(only.allows(ip("127.0.0.1")) && !only.allows(ip("::1")));
        let addr = |s: &str| SocketAddr::new(ip(s), 0);
        let p = AddressPolicy::public_only();
        assert_eq!(
            p.filter("h", [addr("10.0.0.1"), addr("8.8.8.8")]),
            Ok(vec![addr("8.8.8.8")])
        );
        assert_eq!(
            p.filter("h", [addr("10.0.0.1"), addr("::1")])
                .unwrap_err()
                .message,
            "h resolves to 10.0.0.1, not a public address"
        );
        assert_eq!(
            p.filter("[::1]", [addr("::1")]).unwrap_err().message,
            "::1 is not a public address"
        );
    }
}
