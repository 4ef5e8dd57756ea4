package searchbook.realnode;

import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.TokenFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.email.UAX29URLEmailTokenizer;
import org.apache.lucene.analysis.pattern.PatternCaptureGroupTokenFilter;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.elasticsearch.index.analysis.TokenFilterFactory;
import org.elasticsearch.index.analysis.TokenizerFactory;
import org.elasticsearch.indices.analysis.AnalysisModule.AnalysisProvider;
import org.elasticsearch.plugins.AnalysisPlugin;
import org.elasticsearch.plugins.Plugin;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The three analysis parts the `.security` index's mapping names (`uax_url_email`,
 * `pattern_capture`, `unique`), which live in the analysis-common module that Central does
 * not have. Built from Lucene's own classes, with the settings that mapping uses.
 */
public class SecurityIndexAnalysis extends Plugin implements AnalysisPlugin {
    @Override
    public Map<String, AnalysisProvider<TokenizerFactory>> getTokenizers() {
        return Map.of("uax_url_email", (indexSettings, environment, name, settings) -> TokenizerFactory.newFactory(name, () -> {
            UAX29URLEmailTokenizer tokenizer = new UAX29URLEmailTokenizer();
            tokenizer.setMaxTokenLength(settings.getAsInt("max_token_length", 255));
            return tokenizer;
        }));
    }

    @Override
    public Map<String, AnalysisProvider<TokenFilterFactory>> getTokenFilters() {
        return Map.of("pattern_capture", (indexSettings, environment, name, settings) -> {
            List<String> regexes = settings.getAsList("patterns");
            Pattern[] patterns = regexes.stream().map(Pattern::compile).toArray(Pattern[]::new);
            boolean preserveOriginal = settings.getAsBoolean("preserve_original", true);
            return filter(name, input -> new PatternCaptureGroupTokenFilter(input, preserveOriginal, patterns));
        }, "unique", (indexSettings, environment, name, settings) -> filter(name, UniqueTokens::new));
    }

    private static TokenFilterFactory filter(String name, java.util.function.UnaryOperator<TokenStream> wrap) {
        return new TokenFilterFactory() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public TokenStream create(TokenStream input) {
                return wrap.apply(input);
            }
        };
    }

    /** Drops a token whose term was already seen in the stream (the `unique` filter's default). */
    static final class UniqueTokens extends TokenFilter {
        private final CharTermAttribute term = addAttribute(CharTermAttribute.class);
        private final CharArraySet seen = new CharArraySet(8, false);

        UniqueTokens(TokenStream input) {
            super(input);
        }

        @Override
        public boolean incrementToken() throws java.io.IOException {
            while (input.incrementToken()) {
                if (seen.contains(term.buffer(), 0, term.length())) continue;
                char[] copy = new char[term.length()];
                System.arraycopy(term.buffer(), 0, copy, 0, term.length());
                seen.add(copy);
                return true;
            }
            return false;
        }

        @Override
        public void reset() throws java.io.IOException {
            super.reset();
            seen.clear();
        }
    }
}
