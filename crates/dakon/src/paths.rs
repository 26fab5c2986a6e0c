//! Where the solver keeps its files inside the database folder
//! ([`dalkon_store::data_dir`]): the working folders of openings counts.

use dalkon_rules::dakon::Rules;

/// The name of an openings count's working folder:
/// `openings-<n>x<m>-<origin>-<mikul>-<nembak>`.
pub fn openings_dir_name(holes: usize, seeds: u32, rules: &Rules) -> String {
    let (o, mi, ne) = rules.names();
    format!("openings-{holes}x{seeds}-{o}-{mi}-{ne}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openings_folders_name_board_and_rules() {
        assert_eq!(
            openings_dir_name(7, 7, &Rules::default()),
            "openings-7x7-sow-on-keep"
        );
    }
}
