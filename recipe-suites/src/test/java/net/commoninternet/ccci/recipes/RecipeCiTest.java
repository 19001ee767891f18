package net.commoninternet.ccci.recipes;

import net.commoninternet.ccci.api.RecipeCi;

/**
 * The anchor of recipe CI runs in this module: {@code mvn test -Drecipe=<name>} runs the named
 * recipe's CI under this class, so Surefire counts it and writes
 * {@code TEST-net.commoninternet.ccci.recipes.RecipeCiTest.xml}.
 */
@RecipeCi
class RecipeCiTest {
}
