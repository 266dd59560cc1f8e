package dev.sluice.actions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.sluice.testsupport.ApiSettings;

class ApiTokensTest {

    private static final String ALPHA = "alpha-secret-0123456789";
    private static final String BARE = "bare-secret-0123456789";
    private static final String OPERATOR = "root-secret-0123456789";

    private static ApiTokens tokens(List<String> tokens, List<String> operators) {
        return new ApiTokens(ApiSettings.of(tokens, operators));
    }

    @Test
    void eachTokenStandsForItsTenantAndABareOneForTheDefaultTenant() {
        ApiTokens tokens = tokens(List.of("alpha:" + ALPHA, " " + BARE + " "), List.of(OPERATOR));
        assertThat(tokens.open()).isFalse();
        assertThat(tokens.caller("Bearer " + ALPHA)).contains(new Caller("alpha", false));
        assertThat(tokens.caller("bearer " + BARE)).contains(new Caller("default", false));
        assertThat(tokens.caller("Bearer " + OPERATOR)).contains(new Caller("default", true));
        assertThat(tokens.caller("Bearer alpha:" + ALPHA)).isEmpty();
        assertThat(tokens.caller("Bearer " + ALPHA + "x")).isEmpty();
        assertThat(tokens.caller("Basic " + ALPHA)).isEmpty();
        assertThat(tokens.caller(null)).isEmpty();
    }

    @Test
    void withNoTokenEveryRequestIsTheDefaultTenants() {
        ApiTokens tokens = tokens(List.of(), List.of());
        assertThat(tokens.open()).isTrue();
        assertThat(tokens.caller(null)).contains(Caller.ANONYMOUS);
    }

    @Test
    void malformedEntriesStopTheStartWithoutShowingTheToken() {
        assertThatThrownBy(() -> tokens(List.of("alpha:short"), List.of()))
                .hasMessage("sluice.api.tokens, entry 1: " + ApiTokens.Entry.RULE)
                .hasMessageNotContaining("short");
        assertThatThrownBy(() -> tokens(List.of(ALPHA, "Acme:" + BARE), List.of()))
                .hasMessage("sluice.api.tokens, entry 2: " + ApiTokens.Entry.RULE)
                .hasMessageNotContaining(BARE);
        assertThatThrownBy(() -> tokens(List.of("alpha:" + ALPHA), List.of("beta:" + ALPHA)))
                .hasMessage("sluice.api.operator-tokens, entry 1: the same token is given twice");
    }

    /**
     * A token that holds a ':' cannot be told from tenant:token, so the worker
     * refuses it rather than read "ci:abc:0123..." as the tenant ci's shorter token.
     */
    @Test
    void anEntryThatIsNeitherABareTokenNorTenantColonTokenStopsTheStart() {
        for (String ambiguous : List.of(
                "ci:abc:0123456789abcdef", // a bare token with colons, or ci's token "abc:0123..."
                "Prod:0123456789abcdef", // a bare token whose first part is no tenant
                ":0123456789abcdefghij", // an empty tenant
                "alpha:0123456789 abcdef", // a space inside
                "alpha:0123456789abcdé", // beyond ASCII
                "0123456789abcdef:" // a bare token ending in ':', or a tenant with no token
                )) {
            assertThatThrownBy(() -> tokens(List.of(ambiguous), List.of()))
                    .as(ambiguous)
                    .hasMessage("sluice.api.tokens, entry 1: " + ApiTokens.Entry.RULE)
                    .hasMessageContaining("a bare token may not contain ':'")
                    .hasMessageNotContaining("0123456789");
            assertThatThrownBy(() -> tokens(List.of(), List.of(ambiguous)))
                    .as(ambiguous)
                    .hasMessageStartingWith("sluice.api.operator-tokens, entry 1: an entry is a token");
        }
    }

    @Test
    void theDocumentedFormsAreTaken() {
        ApiTokens tokens = tokens(
                List.of("ci:" + "A".repeat(16), "team_b-2:" + "x/y+z=~._-0123456789", "c29tZSByYW5kb20gYnl0ZXMhIQ=="),
                List.of());
        assertThat(tokens.caller("Bearer " + "A".repeat(16))).contains(new Caller("ci", false));
        assertThat(tokens.caller("Bearer x/y+z=~._-0123456789")).contains(new Caller("team_b-2", false));
        assertThat(tokens.caller("Bearer c29tZSByYW5kb20gYnl0ZXMhIQ==")).contains(new Caller("default", false));
    }
}
