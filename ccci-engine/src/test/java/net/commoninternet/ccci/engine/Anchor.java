package net.commoninternet.ccci.engine;

import net.commoninternet.ccci.api.RecipeCi;

/** The anchor class the tests select, as Surefire selects recipe-suites' anchor. */
@RecipeCi
public class Anchor {
}
