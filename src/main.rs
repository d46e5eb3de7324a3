//! The `chimera` binary: the game window, or a command-line tool (see `chimera help`).

use std::io::Write;
use std::process::ExitCode;

use chimera::cli::{Command, USAGE, parse_args, run_check, run_export, run_import, run_perft};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let command = match parse_args(&args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("chimera: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match command {
        Command::Help => print(|out| writeln!(out, "{USAGE}")),
        Command::Version => print(|out| writeln!(out, "{}", chimera::cli::version())),
        Command::Uci => {
            let out: chimera::uci::Output = std::sync::Arc::new(std::sync::Mutex::new(std::io::stdout()));
            chimera::uci::run(chimera::uci::lines(std::io::stdin().lock()), out);
            ExitCode::SUCCESS
        }
        Command::ListVariants => print(|out| chimera::variants::builtin_ids().try_for_each(|id| writeln!(out, "{id}"))),
        Command::ListPresets => print(|out| chimera::presets::every().try_for_each(|p| writeln!(out, "{}\t{}", p.id, p.name))),
        Command::ListProfiles => print(|out| {
            chimera::modifiers::BUILTIN.iter().try_for_each(|(id, _)| {
                let name = chimera::modifiers::builtin(id).and_then(|p| p.name).unwrap_or_default();
                writeln!(out, "{id}\t{name}")
            })
        }),
        Command::Check(files) => {
            if run_check(&files, &mut std::io::stdout().lock()) {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Command::Import { file, out } => match run_import(&file, &out, &mut std::io::stdout().lock()) {
            Ok(_) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("chimera import: {e}");
                ExitCode::FAILURE
            }
        },
        Command::Export { variants, name, all } => {
            let list: Vec<String> = if all { chimera::variants::builtin_ids().map(String::from).collect() } else { variants };
            match run_export(&list, name.as_deref(), &mut std::io::stdout().lock(), &mut std::io::stderr().lock()) {
                // With --all, refusals are the report; for named variants they are failures.
                Ok(refused) if all || refused == 0 => ExitCode::SUCCESS,
                Ok(_) => ExitCode::FAILURE,
                Err(e) => {
                    eprintln!("chimera export: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Command::Balance { variant, presets, settings, json, piece_values } => {
            let mut out = std::io::stdout().lock();
            match chimera::cli::run_balance(&variant, &presets, &settings, json, piece_values, &mut out) {
                Ok(_) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("chimera balance: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Command::Review { file, nodes, json } => {
            let started = std::time::Instant::now();
            let progress = |done: usize, total: usize| {
                eprint!("\r{done}/{total} positions, {:.0} s", started.elapsed().as_secs_f64());
                if done == total {
                    eprintln!();
                }
            };
            let (mut out, mut summary) = (std::io::stdout().lock(), std::io::stderr());
            match chimera::cli::run_review(&file, nodes, json, &mut out, &mut summary, progress) {
                Ok(_) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("\nchimera review: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Command::Perft { variant, fen, depth, divide, profile } => {
            let mut out = std::io::stdout().lock();
            match run_perft(&variant, &fen, depth, divide, profile.as_deref(), &mut out) {
                Ok(_) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("chimera perft: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Command::Game(args) => run_game(args),
    }
}

/// Writes to standard output. A reader that has gone (`| head -1`) ends the writing quietly, as
/// Unix tools do; another write error is reported.
fn print(write: impl FnOnce(&mut std::io::StdoutLock) -> std::io::Result<()>) -> ExitCode {
    let mut out = std::io::stdout().lock();
    match write(&mut out).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("chimera: writing the output: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(feature = "gui")]
fn run_game(args: chimera::cli::GameArgs) -> ExitCode {
    chimera::game::run(args)
}

#[cfg(not(feature = "gui"))]
fn run_game(_args: chimera::cli::GameArgs) -> ExitCode {
    eprintln!("chimera: this build has no game window (built without the `gui` feature)");
    ExitCode::FAILURE
}
