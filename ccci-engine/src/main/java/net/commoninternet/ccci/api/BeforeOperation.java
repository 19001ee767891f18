package net.commoninternet.ccci.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;

/**
 * A recipe's pre-operation hook, the {@code pre_install|pre_upgrade|pre_backup|pre_restore} of
 * the production harness: {@code void name(HookContext context)}, run once right before the
 * tier's operation (for INSTALL: after the app is created and before its single deploy). A hook
 * that throws fails its tier; the operation does not run.
 */
@API(status = API.Status.EXPERIMENTAL)
@Documented
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
public @interface BeforeOperation {
    Tier value();
}
