package net.commoninternet.ccci.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;
import org.junit.platform.commons.annotation.Testable;

/**
 * Marks the class that anchors recipe CI runs in a test source tree. Surefire and IDEs
 * discover tests by class; the ccci engine hangs the selected recipe's run on this class, so
 * the run is counted, reported under the class and rerunnable from the IDE.
 */
@API(status = API.Status.EXPERIMENTAL)
@Documented
@Testable
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
public @interface RecipeCi {
}
