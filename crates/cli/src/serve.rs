//! `robotrules serve`: the robots.txt tester in the browser.

use std::net::SocketAddr;

use anyhow::Context;

use crate::Outcome;

/// Serves the robots.txt tester: a page and its JSON API
///
/// Open the address it prints in a browser: paste, upload or fetch a
/// robots.txt, test URLs and crawlers, see the deciding line, lint
/// diagnostics and the crawler audit. The page opens with an example
/// file. Nothing pasted is logged or stored; the API's OpenAPI document
/// is at /api/openapi.json.
#[derive(clap::Args)]
pub struct Args {
    /// The address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080", value_name = "IP:PORT")]
    addr: SocketAddr,
    /// Let site fetches reach loopback, private and other non-public
    /// addresses (by default they are refused). Only for a tester that
    /// nobody else can reach.
    #[arg(long)]
    allow_private_fetch: bool,
    /// On a loopback address, also answer requests for this host name
    /// (a reverse proxy's); repeat it for several. Other names than
    /// localhost and loopback addresses are refused, so that no web page
    /// reaches the tester through DNS rebinding.
    #[arg(long, value_name = "NAME")]
    allow_host: Vec<String>,
    /// The address of a reverse proxy in front of the tester, whose
    /// X-Forwarded-For header names the client; repeat it for several.
    /// The limit on site fetches (10 a minute) is then per client rather
    /// than for the proxy as a whole.
    #[arg(long, value_name = "IP")]
    trust_proxy: Vec<std::net::IpAddr>,
}

pub fn run(args: Args) -> anyhow::Result<Outcome> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the server runtime")?;
    let config = args.allow_host.iter().fold(
        robotrules_web::Config::default()
            .allow_private_fetch(args.allow_private_fetch),
        |config, name| config.allow_host(name),
    );
    let config = args
        .trust_proxy
        .iter()
        .fold(config, |config, &ip| config.trust_proxy(ip));
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(args.addr)
            .await
            .with_context(|| format!("cannot listen on {}", args.addr))?;
        let addr = listener.local_addr()?;
        eprintln!("robotrules: the robots.txt tester is at http://{addr}/");
        if args.allow_private_fetch {
            eprintln!(
                "robotrules: warning: site fetches may reach private \
                 addresses (--allow-private-fetch)"
            );
        }
        robotrules_web::serve(listener, config)
            .await
            .context("the server stopped")
    })?;
    Ok(Outcome::Allowed)
}
