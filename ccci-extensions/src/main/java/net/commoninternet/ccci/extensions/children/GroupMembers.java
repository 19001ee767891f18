package net.commoninternet.ccci.extensions.children;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** The processes of one process group, read from {@code /proc/<pid>/stat} (state and group id). */
final class GroupMembers {

    private GroupMembers() {
    }

    /** Whether any process of {@code group}, zombies aside, is alive. */
    static boolean anyAlive(long group) {
        try (DirectoryStream<Path> pids = Files.newDirectoryStream(Path.of("/proc"), p -> isNumber(p.getFileName().toString()))) {
            for (Path pid : pids) {
                String stat;
                try {
                    stat = Files.readString(pid.resolve("stat"), StandardCharsets.UTF_8);
                } catch (IOException gone) {
                    continue;
                }
                // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so from the last ')'
                String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ", 4);
                if (fields.length > 2 && fields[0].charAt(0) != 'Z' && Long.parseLong(fields[2]) == group) {
                    return true;
                }
            }
            return false;
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean isNumber(String name) {
        return !name.isEmpty() && name.chars().allMatch(Character::isDigit);
    }
}
