//! Headless Chromium driven by chromedriver on a free port, with a fresh
//! profile. Dropping a [`Browser`] kills chromedriver's whole process group
//! (Chromium included) even when a test panicked before [`Browser::close`].

use std::fs::File;
use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, ensure, Context, Result};
use fantoccini::{Client, ClientBuilder};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::json;
use tempfile::TempDir;

/// Chromium flags for a quiet, offline, reproducible headless run: no
/// sandbox or GPU in containers, and no background traffic to hosts that
/// cannot be reached (updates, sync, QUIC probes).
const CHROME_ARGS: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    // The layout the screenshots show.
    "--window-size=1280,900",
    "--lang=en-US",
];

const DRIVER_START: Duration = Duration::from_secs(20);
/// How long a closed session's Chromium may take to quit.
const QUIT_WAIT: Duration = Duration::from_secs(5);

pub struct Browser {
    pub client: Client,
    // Dropped after the client, in this order: kill, then delete the profile.
    _driver: Driver,
    profile: TempDir,
}

impl Browser {
    /// Starts chromedriver and opens a Chromium session.
    pub async fn start() -> Result<Browser> {
        let chromedriver = tool("CHROMEDRIVER", "/usr/bin/chromedriver")?;
        let chromium = tool("CHROME", "/usr/bin/chromium")?;
        let profile = tempfile::tempdir()?;
        let driver = Driver::start(&chromedriver, profile.path())?;

        let mut args: Vec<String> = CHROME_ARGS.iter().map(|a| a.to_string()).collect();
        args.push(format!(
            "--user-data-dir={}",
            profile.path().join("chrome").display()
        ));
        let mut capabilities = serde_json::Map::new();
        capabilities.insert("browserName".into(), json!("chrome"));
        capabilities.insert(
            "goog:chromeOptions".into(),
            json!({ "binary": chromium, "args": args }),
        );
        let client = ClientBuilder::new(HttpConnector::new())
            .capabilities(capabilities)
            .connect(&driver.url())
            .await
            .with_context(|| {
                format!(
                    "could not open a Chromium session ({}); chromedriver log:\n{}",
                    chromium.display(),
                    driver.log_tail()
                )
            })?;
        Ok(Browser {
            client,
            _driver: driver,
            profile,
        })
    }

    /// Ends the session and gives Chromium time to quit cleanly (its
    /// profile lock goes when it has); dropping then stops chromedriver and
    /// whatever is left.
    pub async fn close(self) -> Result<()> {
        self.client
            .close()
            .await
            .context("closing the browser session")?;
        let lock = self.profile.path().join("chrome/SingletonLock");
        let started = Instant::now();
        while lock.symlink_metadata().is_ok() && started.elapsed() < QUIT_WAIT {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        Ok(())
    }
}

/// A browser tool from `$var` or its Debian path; missing is an error.
fn tool(var: &str, default: &str) -> Result<PathBuf> {
    let path = std::env::var_os(var).map_or_else(|| PathBuf::from(default), PathBuf::from);
    ensure!(
        path.is_file(),
        "{} not found: install Chromium and chromedriver with scripts/setup.sh \
         (apt-get install chromium chromium-driver) or set {var}",
        path.display()
    );
    Ok(path)
}

/// A running chromedriver, in its own process group.
struct Driver {
    child: Child,
    port: u16,
    log: PathBuf,
}

impl Driver {
    fn start(chromedriver: &Path, dir: &Path) -> Result<Driver> {
        let port = free_port()?;
        let log = dir.join("chromedriver.log");
        let child = Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .arg(format!("--log-path={}", log.display()))
            .stdin(Stdio::null())
            .stdout(File::create(dir.join("chromedriver.out"))?)
            .stderr(Stdio::inherit())
            // Chromium's own temp files go there too, and go with it.
            .env("TMPDIR", dir)
            // Its own group, so that killing it takes Chromium too.
            .process_group(0)
            .spawn()
            .with_context(|| format!("starting {}", chromedriver.display()))?;
        let mut driver = Driver { child, port, log };
        let started = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            if let Some(status) = driver.child.try_wait()? {
                bail!("chromedriver exited ({status}):\n{}", driver.log_tail());
            }
            if started.elapsed() > DRIVER_START {
                bail!("chromedriver did not listen on port {port} within {DRIVER_START:?}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Ok(driver)
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// The end of chromedriver's log, for error messages.
    fn log_tail(&self) -> String {
        let log = std::fs::read_to_string(&self.log).unwrap_or_default();
        let lines: Vec<&str> = log.lines().collect();
        lines[lines.len().saturating_sub(40)..].join("\n")
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        if let Ok(pid) = i32::try_from(self.child.id()) {
            // SAFETY: kill(2) with a negative pid signals that process
            // group, which we created with chromedriver as its leader.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
        let _ = self.child.wait();
    }
}

/// A port nothing listens on right now.
fn free_port() -> Result<u16> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}
