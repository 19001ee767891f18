package net.commoninternet.ccci.extensions.results;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.commonmark.Extension;
import org.commonmark.ext.autolink.AutolinkExtension;
import org.commonmark.ext.gfm.strikethrough.StrikethroughExtension;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.Code;
import org.commonmark.node.HtmlBlock;
import org.commonmark.node.HtmlInline;
import org.commonmark.node.Image;
import org.commonmark.node.Link;
import org.commonmark.node.Text;
import org.commonmark.parser.Parser;
import org.commonmark.renderer.html.HtmlRenderer;

/**
 * summary.md as a forge renders it (CommonMark with GFM's tables, autolinks and strikethrough, by
 * commonmark-java), and what of it would act there: a link, an image or HTML anywhere, and in text
 * outside code what a forge turns into more than text (a mention {@code @user} or {@code @org/team},
 * inline or display math between dollars, an issue reference). Code spans and code blocks are text
 * on every forge: none of that is rendered in them.
 */
final class ForgeMarkdown {

    private static final List<Extension> GFM = List.of(TablesExtension.create(), AutolinkExtension.create(),
            StrikethroughExtension.create());
    private static final Parser PARSER = Parser.builder().extensions(GFM).build();
    private static final Pattern MENTION = Pattern.compile("(?<![\\w@/`])@[A-Za-z0-9][A-Za-z0-9-]*(/[A-Za-z0-9][A-Za-z0-9-]*)?");
    private static final Pattern MATH = Pattern.compile("\\$[^$\\s][^$]*\\$");
    private static final Pattern ISSUE = Pattern.compile("(?<![\\w&])#\\d+\\b");

    private ForgeMarkdown() {
    }

    static String html(String markdown) {
        return HtmlRenderer.builder().extensions(GFM).build().render(PARSER.parse(markdown));
    }

    /** The text of every code span, in order. */
    static List<String> codes(String markdown) {
        List<String> codes = new ArrayList<>();
        PARSER.parse(markdown).accept(new AbstractVisitor() {
            @Override
            public void visit(Code code) {
                codes.add(code.getLiteral());
            }
        });
        return codes;
    }

    /** Everything of the rendered document that would act on a forge, each as a short description. */
    static List<String> live(String markdown) {
        List<String> live = new ArrayList<>();
        PARSER.parse(markdown).accept(new AbstractVisitor() {
            @Override
            public void visit(Link link) {
                live.add("link to " + link.getDestination());
                visitChildren(link);
            }

            @Override
            public void visit(Image image) {
                live.add("image " + image.getDestination());
            }

            @Override
            public void visit(HtmlInline html) {
                live.add("HTML " + html.getLiteral());
            }

            @Override
            public void visit(HtmlBlock html) {
                // ccci's own hidden marker, the comment's first line (a recipe's name is a plain name), is no run text
                if (!html.getLiteral().strip().matches("<!-- ccci:[a-z0-9][a-z0-9-]* -->")) {
                    live.add("HTML block " + html.getLiteral());
                }
            }

            @Override
            public void visit(Text text) {
                for (Pattern acts : List.of(MENTION, MATH, ISSUE)) {
                    Matcher m = acts.matcher(text.getLiteral());
                    while (m.find()) {
                        live.add("in text: " + m.group());
                    }
                }
            }
        });
        return live;
    }
}
