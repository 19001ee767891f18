package net.commoninternet.ccci.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;
import org.junit.platform.commons.annotation.Testable;

/**
 * A recipe's own assertion on the state a tier's operation left, run after the tier's generic
 * checks (which always run): {@code void name(LiveApp app)}.
 */
@API(status = API.Status.EXPERIMENTAL)
@Documented
@Testable
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
public @interface AfterOperation {
    Tier value();

    /**
     * What the assertion needs beyond the live app, as JUnit tags (e.g. {@code needs-browser}), so a
     * tag filter can leave it out; each a valid JUnit tag naming no tier. None by default.
     */
    String[] tags() default {};
}
