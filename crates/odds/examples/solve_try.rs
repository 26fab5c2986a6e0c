use dalkon_odds::solved::{plan, NoProgress, Tables, EPS};
use dalkon_rules::daldos::{Board, Position, Variants};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let l: u8 = args[1].parse().unwrap();
    let pa: u8 = args[2].parse().unwrap();
    let pb: u8 = args[3].parse().unwrap();
    let dir = args.get(4).map(std::path::PathBuf::from);
    let board = Board::new(l).unwrap();
    let v = Variants::default();
    let p = plan(board, &v, (pa, pb)).unwrap();
    println!("plan: {} positions, {} bytes", p.positions, p.bytes);
    let mut t = Tables::new(board, v, dir.as_deref());
    for r in t.build(&p, EPS, &mut NoProgress).unwrap() {
        let s = r.stats;
        println!(
            "{}v{} positions {} sweeps {} gap {:.3e} mean {:.6} stalled {} loaded {} ({:.2}s)",
            s.key.a,
            s.key.b,
            s.positions,
            s.sweeps,
            s.gap,
            s.mean_w,
            s.stalled,
            r.loaded,
            r.seconds
        );
    }
    if pa == l && pb == l {
        let b = t.bounds(&Position::start(board)).unwrap();
        println!("start: lo {:.15} hi {:.15}", b.lo, b.hi);
    }
}
