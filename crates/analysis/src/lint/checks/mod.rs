//! The checks, one function each, by family.

use super::Ctx;

mod file;
mod groups;
mod lines;
mod rules;
pub(crate) mod sitemaps;

/// Runs every check.
pub(crate) fn run(ctx: &mut Ctx<'_>) {
    file::html_or_binary(ctx);
    file::too_large(ctx);
    file::bom(ctx);
    file::not_utf8(ctx);
    file::cr_line_endings(ctx);
    lines::line_too_long(ctx);
    lines::ignored_line(ctx);
    lines::nul_in_line(ctx);
    lines::missing_colon(ctx);
    lines::accepted_variant(ctx);
    lines::unknown_directive(ctx);
    lines::ignored_by_google(ctx);
    lines::bad_extension_value(ctx);
    lines::rule_before_user_agent(ctx);
    sitemaps::check(ctx);
    groups::bad_user_agent(ctx);
    groups::empty_group(ctx);
    groups::agent_in_several_groups(ctx);
    groups::global_rules_dropped(ctx);
    groups::merged_groups(ctx);
    groups::misspelled_crawler(ctx);
    rules::each_rule(ctx);
    rules::shadowed_and_equal_priority(ctx);
}

/// Up to `max` items joined with ", ", and how many more there are.
pub(crate) fn list(items: &[String], max: usize) -> String {
    let mut s = items[..items.len().min(max)].join(", ");
    if items.len() > max {
        s.push_str(&format!(" and {} more", items.len() - max));
    }
    s
}
