package net.commoninternet.ccci.recipes;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import net.commoninternet.ccci.api.AfterOperation;
import net.commoninternet.ccci.api.BeforeOperation;
import net.commoninternet.ccci.api.Functional;
import net.commoninternet.ccci.api.HookContext;
import net.commoninternet.ccci.api.LiveApp;
import net.commoninternet.ccci.api.RecipeCustomization;
import net.commoninternet.ccci.api.Tier;

/**
 * guestbook's CI: an app and a real PostgreSQL. What the generic tiers cannot see, it proves
 * through the database itself: an entry written before the backup is in the dump the pre-hook
 * wrote, is gone after it is deleted, and is back after the restore (the post-hook loaded the
 * dump); an entry written before the upgrade survives it; the generated password is as long as
 * its length hint says and is what PostgreSQL checks.
 */
public final class GuestbookCi implements RecipeCustomization {

    private static final String BEFORE_BACKUP = "written before the backup";
    private static final String BEFORE_UPGRADE = "written before the upgrade";
    private static final String DUMP = "/var/lib/postgresql/data/backup.sql";

    @Override
    public String recipe() {
        return "guestbook";
    }

    @Override
    public Map<String, Object> keys() {
        return Map.of(
                // ready once the app's migration ran and its page reads the database
                "READY_PROBE", "http:/cgi-bin/entries",
                "BACKUP_VERIFY", "exec:db:test -s " + DUMP);
    }

    /** SQL as the database's own superuser, over its Unix socket, in the db container. */
    private static LiveApp.Response sql(LiveApp app, String statement) throws Exception {
        LiveApp.Response result = app.exec("db", "psql -X -A -t -q -v ON_ERROR_STOP=1 -U guestbook -d guestbook -c \""
                + statement + "\"");
        assertThat(result.status()).as("%s: %s", statement, result.body()).isZero();
        return result;
    }

    private static String page(LiveApp app) throws Exception {
        LiveApp.Response page = app.get("/cgi-bin/entries");
        assertThat(page.status()).as(page.body()).isEqualTo(200);
        return page.body();
    }

    /** The secret's modifier (# length=48 on SECRET_DB_PASSWORD_VERSION) decided its length. */
    @AfterOperation(Tier.INSTALL)
    void theGeneratedPasswordIsAsLongAsItsLengthHintSays(LiveApp app) throws Exception {
        LiveApp.Response length = app.exec("app", "tr -d '\\n' < /run/secrets/db_password | wc -c");

        assertThat(length.body().strip()).isEqualTo("48");
    }

    /** COMPOSE_FILE chose compose.postgres.yml, not the commented-out compose.smtp.yml. */
    @AfterOperation(Tier.INSTALL)
    void theOverlayChosenInTheEnvSampleIsDeployedAndTheCommentedOneIsNot(LiveApp app) throws Exception {
        assertThat(app.exec("app", "echo \"${DB_HOST-unset}|${SMTP_HOST-unset}\"").body()).isEqualTo("db|unset");
        assertThat(page(app)).contains("<h1>" + app.domain() + " guest book</h1>");
    }

    @BeforeOperation(Tier.UPGRADE)
    void writeAnEntryBeforeTheUpgrade(HookContext context) throws Exception {
        sql(context.app().orElseThrow(), "insert into entries (body) values ('" + BEFORE_UPGRADE + "')");
    }

    /** 1.1.0's page (APP_CGI_VERSION v2) counts the entries, and the one written before the upgrade is still there. */
    @AfterOperation(Tier.UPGRADE)
    void theUpgradedPageCountsTheEntriesAndKeptTheirs(LiveApp app) throws Exception {
        String count = sql(app, "select count(*) from entries").body().strip();

        assertThat(page(app)).contains("<p>" + count + " entries</p>", "<li>" + BEFORE_UPGRADE + "</li>");
    }

    @BeforeOperation(Tier.BACKUP)
    void writeAnEntryBeforeTheBackup(HookContext context) throws Exception {
        sql(context.app().orElseThrow(), "insert into entries (body) values ('" + BEFORE_BACKUP + "')");
    }

    /** The pre-hook dumped the database into the volume, entry included: that dump is what was backed up. */
    @AfterOperation(Tier.BACKUP)
    void thePreHooksDumpHoldsTheEntry(LiveApp app) throws Exception {
        LiveApp.Response dump = app.exec("db", "grep -c '" + BEFORE_BACKUP + "' " + DUMP);

        assertThat(dump.status()).as(dump.body()).isZero();
        assertThat(dump.body().strip()).isEqualTo("1");
    }

    /** Without this the restore would prove nothing: the entry is gone, and so is the dump, before the restore. */
    @BeforeOperation(Tier.RESTORE)
    void deleteTheEntryAndTheDumpBeforeTheRestore(HookContext context) throws Exception {
        LiveApp app = context.app().orElseThrow();
        sql(app, "delete from entries where body = '" + BEFORE_BACKUP + "'");
        assertThat(app.exec("db", "rm " + DUMP).status()).isZero();
        assertThat(page(app)).doesNotContain(BEFORE_BACKUP);
    }

    /** The restore put the dump back and its post-hook loaded it: the entry is on the page again. */
    @AfterOperation(Tier.RESTORE)
    void theEntryWrittenBeforeTheBackupIsBackAfterTheRestore(LiveApp app) throws Exception {
        assertThat(page(app)).contains("<li>" + BEFORE_BACKUP + "</li>");
        assertThat(sql(app, "select count(*) from entries where body = '" + BEFORE_BACKUP + "'").body().strip()).isEqualTo("1");
    }

    /** An entry in the database is on the page at once: the front reads the database on every request. */
    @Functional
    void anEntryInTheDatabaseIsOnThePage(LiveApp app) throws Exception {
        sql(app, "insert into entries (body) values ('hello from ccci')");

        assertThat(page(app)).contains("<li>hello from ccci</li>");
    }

    /** The app logs in over the network with the generated password, and PostgreSQL refuses any other. */
    @Functional
    void postgresqlChecksTheGeneratedPassword(LiveApp app) throws Exception {
        String login = "psql -X -A -t -q -h db -U guestbook -d guestbook -c 'select 42'";

        assertThat(app.exec("app", "PGPASSWORD=$(cat /run/secrets/db_password) " + login).body()).isEqualTo("42");
        LiveApp.Response wrong = app.exec("app", "PGPASSWORD=not-the-password " + login);
        assertThat(wrong.status()).isNotZero();
        assertThat(wrong.body()).contains("password authentication failed");
    }
}
