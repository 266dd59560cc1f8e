package dev.sluice.image;

/**
 * A user name and password for one registry. Never printed: {@link #toString}
 * names the user alone, so a credential that reaches a log by mistake leaks
 * nothing.
 */
record RegistryCredential(String username, String password) {

    @Override
    public String toString() {
        return "RegistryCredential[" + username + ", password hidden]";
    }
}
