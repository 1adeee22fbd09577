//! A per-client limit on site fetches: a token bucket per client address.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How many clients are remembered at most; past that, clients whose
/// bucket is full again are forgotten, and if none is, every one.
const MAX_CLIENTS: usize = 10_000;

/// Allows each client `per_minute` fetches a minute, as a burst or spread
/// out.
pub(crate) struct Limiter {
    per_minute: f64,
    buckets: Mutex<HashMap<IpAddr, (f64, Instant)>>,
}

impl Limiter {
    pub(crate) fn new(per_minute: u32) -> Limiter {
        Limiter {
            per_minute: f64::from(per_minute),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes a fetch from `client`'s allowance at `now`: `Ok` if there
    /// was one, else how long until there is.
    pub(crate) fn take(
        &self,
        client: IpAddr,
        now: Instant,
    ) -> Result<(), Duration> {
        let key = clamp(client);
        let rate = self.per_minute / 60.0;
        let mut buckets =
            self.buckets.lock().unwrap_or_else(|poison| poison.into_inner());
        if buckets.len() >= MAX_CLIENTS && !buckets.contains_key(&key) {
            let full = self.per_minute;
            buckets.retain(|_, (tokens, at)| {
                *tokens
                    + now.saturating_duration_since(*at).as_secs_f64() * rate
                    < full
            });
            if buckets.len() >= MAX_CLIENTS {
                buckets.clear();
            }
        }
        let (tokens, at) =
            buckets.entry(key).or_insert((self.per_minute, now));
        let elapsed = now.saturating_duration_since(*at).as_secs_f64();
        *tokens = (*tokens + elapsed * rate).min(self.per_minute);
        *at = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64((1.0 - *tokens) / rate))
        }
    }
}

/// One client is an IPv4 address or an IPv6 /64 (what one subscriber
/// usually gets).
fn clamp(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_then_one_per_interval() {
        let limiter = Limiter::new(6);
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        let b: IpAddr = "2001:db8::1".parse().unwrap();
        let b2: IpAddr = "2001:db8::2".parse().unwrap();
        let t = Instant::now();
        for _ in 0..6 {
            assert!(limiter.take(a, t).is_ok());
        }
        let wait = limiter.take(a, t).unwrap_err();
        assert_eq!(wait.as_secs(), 10);
        assert!(limiter.take(a, t + Duration::from_secs(10)).is_ok());
        assert!(limiter.take(a, t + Duration::from_secs(11)).is_err());
        for _ in 0..6 {
            assert!(limiter.take(b, t).is_ok());
        }
        // The same /64.
        assert!(limiter.take(b2, t).is_err());
    }

    #[test]
    fn memory_is_bounded() {
        let limiter = Limiter::new(1);
        let t = Instant::now();
        for i in 0..(MAX_CLIENTS as u32 + 5) {
            let _ = limiter.take(IpAddr::from(i.to_be_bytes()), t);
        }
        assert!(limiter.buckets.lock().unwrap().len() <= MAX_CLIENTS);
    }
}
