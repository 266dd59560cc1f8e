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
                .hasMessage("sluice.api.tokens, entry 1: a token must be at least 16 characters, without spaces")
                .hasMessageNotContaining("short");
        assertThatThrownBy(() -> tokens(List.of(ALPHA, "Acme:" + BARE), List.of()))
                .hasMessageStartingWith("sluice.api.tokens, entry 2: the tenant must match")
                .hasMessageNotContaining(BARE);
        assertThatThrownBy(() -> tokens(List.of("alpha:" + ALPHA), List.of("beta:" + ALPHA)))
                .hasMessage("sluice.api.operator-tokens, entry 1: the same token is given twice");
    }
}
