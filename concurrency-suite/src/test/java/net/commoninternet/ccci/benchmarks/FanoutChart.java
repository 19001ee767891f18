package net.commoninternet.ccci.benchmarks;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The fan-out curve as a PNG (JFreeChart): per parallelism P, the command's wall against the
 * number of recipes N, and, dashed in the same colour, ceil(N/P) x one run alone (the ideal the
 * 1.25x target is held against).
 */
final class FanoutChart {

    private static final Color[] COLOURS = {new Color(0x1b9e77), new Color(0xd95f02), new Color(0x7570b3),
            new Color(0xe7298a), new Color(0x66a61e)};

    private FanoutChart() {
    }

    static void write(Path png, List<FanoutBench.Command> commands, long aloneMillis) throws IOException {
        Map<Integer, XYSeries> walls = new TreeMap<>();
        Map<Integer, XYSeries> ideals = new TreeMap<>();
        for (FanoutBench.Command c : commands) {
            walls.computeIfAbsent(c.p(), p -> new XYSeries("P=" + p + ": wall")).add(c.n(), c.span() / 1000.0);
            ideals.computeIfAbsent(c.p(), p -> new XYSeries("P=" + p + ": ceil(N/P) x one run alone"))
                    .add(c.n(), Math.ceil(c.n() / (double) c.p()) * aloneMillis / 1000.0);
        }
        XYSeriesCollection data = new XYSeriesCollection();
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer();
        int series = 0;
        int colour = 0;
        for (Integer p : walls.keySet()) {
            Color c = COLOURS[colour++ % COLOURS.length];
            data.addSeries(walls.get(p));
            renderer.setSeriesPaint(series, c);
            renderer.setSeriesStroke(series++, new BasicStroke(2f));
            data.addSeries(ideals.get(p));
            renderer.setSeriesPaint(series, c);
            renderer.setSeriesShapesVisible(series, false);
            renderer.setSeriesStroke(series++, new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
                    new float[] {6f, 4f}, 0f));
        }
        JFreeChart chart = ChartFactory.createXYLineChart("One command of N generated recipes (install + upgrade)",
                "recipes in the command (N)", "wall, first run's start to last run's end (s)", data,
                PlotOrientation.VERTICAL, true, false, false);
        XYPlot plot = chart.getXYPlot();
        plot.setRenderer(renderer);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        ChartUtils.saveChartAsPNG(png.toFile(), chart, 900, 560);
    }
}
