package dev.sluice.docs;

/**
 * How a setting's path, as SmallRye writes it, reads in the document: a map's
 * key ({@code *}) as {@code <key>}, a list's index ({@code [*]}) as
 * {@code [<n>]}; and the environment variable that sets it, by SmallRye's
 * rule for environment names: every character that is not a letter or digit
 * becomes {@code _}, and letters are upper-cased.
 */
final class SettingNames {

    private SettingNames() {}

    static String property(String path) {
        return path.replace("[*]", "[<n>]").replace("*", "<key>");
    }

    static String environment(String path) {
        StringBuilder env = new StringBuilder();
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c == '*') {
                env.append(i > 0 && path.charAt(i - 1) == '[' ? "<N>" : "<KEY>");
            } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
                env.append(Character.toUpperCase(c));
            } else {
                env.append('_');
            }
        }
        return env.toString();
    }
}
