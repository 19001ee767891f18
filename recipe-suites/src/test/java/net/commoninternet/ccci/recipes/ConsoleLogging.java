package net.commoninternet.ccci.recipes;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ConfiguratorRank;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;
import org.slf4j.Logger;

/**
 * The recipe runs' logging, set up in code (a logback {@link Configurator}, found as a service)
 * rather than from a {@code logback-test.xml}: logback's XML configuration loads its whole Joran
 * model and the JDK's XML parser, some 700 classes, which a cold JVM on two cores paid on the early
 * engine connection's thread (the first to log) while the first run started, and the run then
 * waited for that connection. What it sets is what the XML said: one console appender (it writes
 * through {@code System.out} at each event, so the run's secret filter sees every line), the
 * {@code [recipe]} of a run's lines (the MDC key {@code ccci.recipe}: several recipes run at once),
 * docker-java and the HTTP client at WARN, everything else at INFO. No file appender:
 * {@code -Dccci.log-file} is written by the run's console filter (RedactedConsole), so the file gets
 * the same secret-masked lines as the console, teardown of a cancelled run included
 * (docs/lifetime.md). That filter also keeps ccci's line shape the recipe's alone: a message's lines
 * after its first (a hook's output it quotes, a stack trace) begin with a gutter, never at the start
 * of a line (docs/security.md, "Output is data"). {@code -Dlogback.configurationFile=<file>} still configures logback from that
 * file instead.
 */
@ConfiguratorRank(ConfiguratorRank.CUSTOM_NORMAL_PRIORITY)
public final class ConsoleLogging extends ContextAwareBase implements Configurator {

    /** The console line: time, level, {@code [recipe] } on a run's lines only, logger, message. */
    static final String PATTERN = "%d{HH:mm:ss.SSS} %-5level %replace([%X{ccci.recipe}] ){'^\\[\\] $', ''}%logger{0} - %msg%n";

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        if (System.getProperty("logback.configurationFile") != null) {
            return ExecutionStatus.INVOKE_NEXT_IF_ANY; // logback's own configurator reads that file
        }
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern(PATTERN);
        encoder.start();
        ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
        console.setContext(context);
        console.setName("CONSOLE");
        console.setEncoder(encoder);
        console.start();
        context.getLogger("com.github.dockerjava").setLevel(Level.WARN);
        context.getLogger("org.apache.hc").setLevel(Level.WARN);
        ch.qos.logback.classic.Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.INFO);
        root.addAppender(console);
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }
}
