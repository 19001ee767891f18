package net.commoninternet.ccci.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;
import org.junit.platform.commons.annotation.Testable;

/** A functional test of the recipe against the live app (the CUSTOM tier): {@code void name(LiveApp app)}. */
@API(status = API.Status.EXPERIMENTAL)
@Documented
@Testable
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
public @interface Functional {

    /**
     * What the test needs beyond the live app, as JUnit tags (e.g. {@code needs-browser}), so a tag
     * filter can leave it out; each a valid JUnit tag naming no tier. None by default.
     */
    String[] tags() default {};
}
