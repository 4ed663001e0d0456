@echo off
rem Every scenario starts from this: Windows 11 23H2, no NVIDIA adapter, the VC++ runtime
rem installed, a system-managed paging file, HAGS off, no registered Pythons, no power scheme.
reg add "HKLM\SOFTWARE\Microsoft\Windows NT\CurrentVersion" /v ProductName /t REG_SZ /d "Windows 10 Pro" /f
reg add "HKLM\SOFTWARE\Microsoft\Windows NT\CurrentVersion" /v DisplayVersion /t REG_SZ /d 23H2 /f
reg add "HKLM\SOFTWARE\Microsoft\Windows NT\CurrentVersion" /v CurrentBuildNumber /t REG_SZ /d 22631 /f
reg add "HKLM\SOFTWARE\Microsoft\Windows NT\CurrentVersion" /v UBR /t REG_DWORD /d 4037 /f
reg add "HKLM\SOFTWARE\Microsoft\Windows NT\CurrentVersion" /v EditionID /t REG_SZ /d Professional /f
reg add "HKLM\SOFTWARE\Microsoft\VisualStudio\14.0\VC\Runtimes\x64" /v Installed /t REG_DWORD /d 1 /f
reg add "HKLM\SOFTWARE\Microsoft\VisualStudio\14.0\VC\Runtimes\x64" /v Version /t REG_SZ /d v14.40.33810.00 /f
reg add "HKLM\SYSTEM\CurrentControlSet\Control\Session Manager\Memory Management" /v PagingFiles /t REG_MULTI_SZ /d "?:\pagefile.sys" /f
reg add "HKLM\SYSTEM\CurrentControlSet\Control\GraphicsDrivers" /v HwSchMode /t REG_DWORD /d 1 /f
reg delete "HKLM\SYSTEM\CurrentControlSet\Control\Class\{4d36e968-e325-11ce-bfc1-08002be10318}\0100" /f
reg delete "HKCU\Software\Python" /f
reg delete "HKLM\Software\Python" /f
reg delete "HKLM\SYSTEM\CurrentControlSet\Control\Power\User\PowerSchemes" /f
reg delete "HKLM\SOFTWARE\Policies\Microsoft\Power" /f
