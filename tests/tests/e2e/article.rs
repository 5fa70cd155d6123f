//! Opening a result shows the article with the query marked, and its
//! cross-references as the blob's graph has them; following one opens the
//! cited article, whose "Cited by" leads back. The same function reads
//! and follows an article of a blob and of a fragmented pool.

use anyhow::{ensure, Context, Result};
use nomos_e2e::app::{finish, App, Article};
use nomos_e2e::one_at_a_time;
use nomos_e2e::paths::dist_dir;
use nomos_e2e::server::StaticServer;

use crate::fragmented_pool;
use crate::native::Pool;
use crate::search::DA_QUERY;

/// Article 16 (education) of the Greek Constitution, which refers to
/// Article 88 (civil servants) for its professors.
const EL_QUERY: &str = "η παιδεία αποτελεί βασική αποστολή του Κράτους";
const EL_ARTICLE: &str = "Syntagma::16";

/// § 70, stk. 3 of the Danish copyright act applies a long list of its
/// other provisions to photographs ("§ 2, stk. 2-4, §§ 3, 7, 9, …").
const DA_ARTICLE: &str = "ophavsretsloven_§70_stk1";
const DA_SIBLING: &str = "ophavsretsloven_§70_stk3";

#[tokio::test]
async fn articles_follow_their_references_and_back_on_a_blob_and_a_fragmented_pool() -> Result<()> {
    let _turn = one_at_a_time().await;
    let greek = Pool::load("el-syntagma.blob")?;
    let cut = Pool::load_path(&fragmented_pool::whole_blob()?)?;
    let cut_article = fragmented_pool::top_article(|id| Ok(!cut.cites(id)?.is_empty()))?;
    let server = StaticServer::start(&dist_dir()?)?;
    let app = App::open(&server.url()).await?;
    let outcome = async {
        app.choose_pool("el-syntagma.blob").await?;
        read_follow_and_back(&app, &greek, EL_QUERY, EL_ARTICLE, true).await?;
        app.screenshot("article-greek").await?;

        app.choose_pool(fragmented_pool::POOL).await?;
        // A fragmented pool's documents fragments hold each article's own
        // references, not the whole graph "Cited by" needs (docs/formats.md).
        read_follow_and_back(&app, &cut, fragmented_pool::QUERY, &cut_article, false).await?;
        Ok(())
    }
    .await;
    finish(app, outcome).await
}

/// Opens `id` from `query`'s results: the query is marked and its
/// references are `pool`'s; its first citation opens the cited article,
/// which shows its own references (and, if the page knows what cites an
/// article, `cited_by`, lists `id` under "Cited by"); Back returns to `id`.
async fn read_follow_and_back(
    app: &App,
    pool: &Pool,
    query: &str,
    id: &str,
    cited_by: bool,
) -> Result<()> {
    let article = open(app, query, id).await?;
    ensure!(
        !article.marks.is_empty(),
        "no query match is marked in {id}"
    );
    expect_refs(&article, "Cites", &pool.cites(id)?)?;
    expect_refs(&article, "Siblings", &pool.siblings(id)?)?;

    let target = pool.cites(id)?.into_iter().next().context("no reference")?;
    let cited = app.follow("Cites", &target).await?;
    expect_refs(&cited, "Cites", &pool.cites(&target)?)?;
    if cited_by {
        expect_refs(&article, "Cited by", &pool.cited_by(id)?)?;
        ensure!(
            cited.ids("Cited by").iter().any(|c| c == id),
            "{target} does not list {id} under Cited by"
        );
        expect_refs(&cited, "Cited by", &pool.cited_by(&target)?)?;
    }

    app.back_to(id).await?;
    Ok(())
}

#[tokio::test]
async fn danish_article_leads_to_its_sibling_and_what_it_cites() -> Result<()> {
    let _turn = one_at_a_time().await;
    let pool = Pool::load("da-acts.blob")?;
    let server = StaticServer::start(&dist_dir()?)?;
    let app = App::open(&server.url()).await?;
    let outcome = async {
        let article = open(&app, DA_QUERY, DA_ARTICLE).await?;
        expect_refs(&article, "Siblings", &pool.siblings(DA_ARTICLE)?)?;

        let sibling = app.follow("Siblings", DA_SIBLING).await?;
        let cites = pool.cites(DA_SIBLING)?;
        expect_refs(&sibling, "Cites", &cites)?;

        let first = cites.first().context("no reference")?;
        let cited = app.follow("Cites", first).await?;
        expect_refs(&cited, "Cited by", &pool.cited_by(first)?)?;
        app.back_to(DA_SIBLING).await?;
        Ok(())
    }
    .await;
    finish(app, outcome).await
}

/// Searches `query` and opens the result `id`.
async fn open(app: &App, query: &str, id: &str) -> Result<Article> {
    let rows = app.search(query).await?;
    let index = rows
        .iter()
        .position(|r| r.id == id)
        .with_context(|| format!("{id} is not among the results for {query:?}"))?;
    let article = app.open_result(index).await?;
    ensure!(!article.title.is_empty(), "{id} has no title");
    ensure!(!article.text.trim().is_empty(), "{id} has no text");
    Ok(article)
}

/// The group shows the blob's references: its count is all of them and
/// it lists them in order (long groups list the first ones until "Show
/// all"). An empty group is not shown.
fn expect_refs(article: &Article, group: &str, native: &[String]) -> Result<()> {
    let id = &article.id;
    let Some(shown) = article.refs.get(group) else {
        ensure!(
            native.is_empty(),
            "{id} shows no {group:?} but the blob has {native:?}"
        );
        return Ok(());
    };
    let count: usize = shown.count.replace(',', "").parse()?;
    ensure!(
        count == native.len(),
        "{id}: {group:?} counts {count}, the blob has {}",
        native.len()
    );
    ensure!(
        !shown.ids.is_empty() && native.starts_with(&shown.ids),
        "{id}: {group:?} lists {:?}, the blob has {native:?}",
        shown.ids
    );
    Ok(())
}
