package net.commoninternet.ccci.engine.extension;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/** Calls a recipe customization's annotated methods (hooks, assertions, functional tests). */
final class CustomizationMethods {

    private CustomizationMethods() {
    }

    /**
     * {@code method(argument)} on {@code instance}, throwing what the method threw (an assertion
     * failure, an abort) rather than the reflection wrapper around it.
     */
    static void invoke(Method method, Object instance, Object argument) throws Exception {
        method.setAccessible(true);
        try {
            method.invoke(instance, argument);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof Exception ex) {
                throw ex;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw e;
        }
    }
}
